// `npm run bench`: the gateway-overhead benchmark and the durable ledger's cost, a soak (60 s by default;
// `npm run bench -- --soak-seconds 600` for longer), then OCR throughput and accuracy beside Debian's tesseract.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync(join(root, 'dist/gateway/src/cli.js'))) run('npm', ['run', '--silent', 'build:gateway']);
run('npx', ['tsx', 'bench/gateway/run.ts', ...process.argv.slice(2)]);
run('npx', ['tsx', 'bench/gateway/soak.ts', ...process.argv.slice(2)]);
run('npx', ['tsx', 'bench/ocr/run.ts']);
