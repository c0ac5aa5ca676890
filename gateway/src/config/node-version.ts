/** The oldest Node this build runs on: package.json's `engines.node` (a test keeps the two equal). */
export const REQUIRED_NODE = '22.12';

function parts(version: string): number[] {
  return version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);
}

/**
 * One line saying this Node is too old, or undefined when it will do. Several dependencies
 * (Kysely, pg-boss, the newer Fastify plugins) need Node 22.12 and fail in obscure ways on older ones.
 */
export function unsupportedNodeMessage(running: string): string | undefined {
  const have = parts(running);
  const need = parts(REQUIRED_NODE);
  for (let index = 0; index < need.length; index += 1) {
    if ((have[index] ?? 0) > need[index]) return undefined;
    if ((have[index] ?? 0) < need[index]) {
      return `Switchyard needs Node ${REQUIRED_NODE} or newer; this is Node ${running.replace(/^v/, '')}. Install a newer Node (for example from the npm registry: npm install node@22) and run it again.`;
    }
  }
  return undefined;
}
