// `npm run serve`: build what is missing or stale, then run the headless gateway in this process
// (so SIGTERM/SIGINT reach its graceful shutdown).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

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

function run(script) {
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (stale('dist/gateway/src/cli.js', 'gateway/src')) run('build:gateway');
if (stale('dist/renderer/index.html', 'renderer/src', 'renderer/index.html')) run('build:renderer');

await import(join(root, 'dist/gateway/src/cli.js'));
