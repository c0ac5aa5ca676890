// `npm run serve`: build what is missing or stale, then run the headless gateway in this process
// (so SIGTERM/SIGINT reach its graceful shutdown).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

// Before anything is built: on an older Node the build or the gateway fails with errors that do not say why.
const required = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.replace(/^>=\s*/, '');
const [have, need] = [process.versions.node, required].map((version) => version.split('.').map(Number));
const older = need.findIndex((part, index) => (have[index] ?? 0) !== part);
if (older !== -1 && (have[older] ?? 0) < need[older]) {
  process.stderr.write(
    `Switchyard needs Node ${required} or newer; this is Node ${process.versions.node}. Install a newer Node (for example from the npm registry: npm install node@22) and run it again.\n`,
  );
  process.exit(1);
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
