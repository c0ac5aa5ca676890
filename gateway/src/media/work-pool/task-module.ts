import { fileURLToPath } from 'node:url';

/**
 * The file a work-pool thread loads for the module `name` next to `moduleUrl` (a caller's
 * `import.meta.url`): the built `.js` in production, the `.ts` source under the tests.
 */
export function taskModule(moduleUrl: string, name: string): string {
  const extension = moduleUrl.endsWith('.ts') ? '.ts' : '.js';
  return fileURLToPath(new URL(`./${name}${extension}`, moduleUrl));
}

/** Resolves a relative `./x.js` the source names to `./x.ts` when only that exists, as tsc and Vitest do. */
const SOURCE_RESOLVER = `export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !specifier.startsWith('.') || !specifier.endsWith('.js')) throw error;
    return next(specifier.slice(0, -3) + '.ts', context);
  }
}`;

const dataUrl = (source: string): string => `data:text/javascript,${encodeURIComponent(source)}`;

/**
 * Node options for a thread that loads task modules: none for the built JavaScript; for the
 * TypeScript source (tests), Node's own type stripping (with parameter properties) and the resolver
 * above, which start a thread several times faster than a transpiling loader.
 */
export function threadExecArgv(moduleUrl: string): string[] {
  if (!moduleUrl.endsWith('.ts')) return [];
  const register = `import { register } from 'node:module'; register(${JSON.stringify(dataUrl(SOURCE_RESOLVER))});`;
  return ['--experimental-transform-types', '--disable-warning=ExperimentalWarning', '--import', dataUrl(register)];
}
