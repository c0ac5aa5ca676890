// `npm run serve`: build what is missing or stale, then run the headless gateway in this process
// (so SIGTERM/SIGINT reach its graceful shutdown).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

// Before anything is built: on an older Node the build or the gateway fails with errors that do not say why.
const required = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.replace(/^>=\s*/, '');
const tooOld = (version) => {
  const [have, need] = [version.replace(/^v/, ''), required].map((text) => text.split('.').map(Number));
  const differs = need.findIndex((part, index) => (have[index] ?? 0) !== part);
  return differs !== -1 && (have[differs] ?? 0) < need[differs];
};
/** Where `.ci/run` (and the README) put Node 24 from the npm registry on a machine whose own Node is older. */
const cachedNode = join(
  process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
  'switchyard/node24/node_modules/.bin/node',
);

/** The cached Node when it exists and is new enough, else undefined. */
function newerCachedNode() {
  if (!existsSync(cachedNode)) return undefined;
  const version = spawnSync(cachedNode, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
  return version !== '' && !tooOld(version) ? { path: cachedNode, version: version.replace(/^v/, '') } : undefined;
}

if (tooOld(process.versions.node)) {
  const newer = newerCachedNode();
  if (!newer) {
    process.stderr.write(
      `Switchyard needs Node ${required} or newer; this is Node ${process.versions.node}. Install a newer Node (for example from the npm registry: npm install node@22) and run it again.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(
    `Node ${process.versions.node} is older than ${required}: starting with Node ${newer.version} from ${newer.path}\n`,
  );
  const child = spawn(newer.path, [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${dirname(newer.path)}:${process.env.PATH ?? ''}` },
  });
  // Stops and reloads reach the gateway, as when it runs in this process.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('exit', (exitCode) => resolve(exitCode ?? 1)));
  process.exit(code);
}

/** The newest modification time under `path`, which may be a file or a folder. */
function newestMtime(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'test') continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

function stale(output, ...sources) {
  if (!existsSync(join(root, output))) return true;
  const built = statSync(join(root, output)).mtimeMs;
  return sources.some((source) => existsSync(join(root, source)) && newestMtime(join(root, source)) > built);
}

function run(script, what) {
  process.stdout.write(`${what}\n`);
  const started = Date.now();
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  process.stdout.write(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const gatewayStale = stale('dist/gateway/src/cli.js', 'gateway/src');
const consoleStale = stale('dist/renderer/index.html', 'renderer/src', 'renderer/index.html');
if (gatewayStale || consoleStale)
  process.stdout.write(
    'Building Switchyard before its first start (or after a change); this takes about half a minute.\n',
  );
if (gatewayStale) run('build:gateway', 'Compiling the gateway (TypeScript -> dist/gateway)...');
if (consoleStale) run('build:renderer', 'Bundling the web console (Vite -> dist/renderer)...');
process.stdout.write('Starting the gateway...\n');

await import(join(root, 'dist/gateway/src/cli.js'));
