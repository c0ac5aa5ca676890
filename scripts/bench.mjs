// `npm run bench`: the gateway-overhead benchmark and the durable ledger's cost, the start-up time, what traces cost, a soak (60 s by default;
// `npm run bench -- --soak-seconds 600` for longer), the hostile load (one key's chats while another key attacks), then OCR throughput and accuracy beside Debian's tesseract.
// `npm run bench -- --ocr [OCR options]` runs only the OCR benchmark (bench/ocr/run.ts takes the options).
// `npm run bench -- --store [--rows N] [--log-rows N]` runs only the store-at-scale benchmark (1,000,000 usage rows).
// `npm run bench -- --sizing [--database URL] [--seconds N]` runs only team mode's sizing (bench/gateway/sizing.ts).
// `npm run bench -- --hostile [--seconds N] [--rate N]` runs only the hostile load (bench/gateway/hostile.ts).
// `npm run bench -- --traces` runs only what traces cost: this build against itself with request tracing left out.
// `npm run bench -- --startup [--starts N] [--gateway other/cli.js]` runs only the start-up time (bench/gateway/startup.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync(join(root, 'dist/gateway/src/cli.js'))) run('npm', ['run', '--silent', 'build:gateway']);
const args = process.argv.slice(2);
if (args[0] === '--ocr') {
  run('npx', ['tsx', 'bench/ocr/run.ts', ...args.slice(1)]);
  process.exit(0);
}
if (args[0] === '--store') {
  run('npx', ['tsx', 'bench/store/usage-scale.ts', ...args.slice(1)]);
  process.exit(0);
}
if (args[0] === '--startup') {
  run('npx', ['tsx', 'bench/gateway/startup.ts', ...args.slice(1)]);
  process.exit(0);
}
if (args[0] === '--hostile') {
  run('npx', ['tsx', 'bench/gateway/hostile.ts', ...args.slice(1)]);
  process.exit(0);
}
// What traces cost a request (issue 34: within 3 %), plain and streamed: this build against a copy of
// itself with request tracing left out, both at once, on fresh processes each pass.
const traceCost = () => {
  for (const stream of [[], ['--stream']])
    run('npx', [
      'tsx',
      'bench/gateway/knockout.ts',
      '--leave-out',
      'traces',
      '--passes',
      '4',
      '--rounds',
      '3',
      '--seconds',
      '3',
      ...stream,
    ]);
};
if (args[0] === '--traces') {
  traceCost();
  process.exit(0);
}
if (args[0] === '--sizing') {
  run('npx', ['tsx', 'bench/gateway/run.ts', '--only', 'sizing', ...args.slice(1)]);
  process.exit(0);
}
run('npx', ['tsx', 'bench/gateway/run.ts', ...args]);
run('npx', ['tsx', 'bench/gateway/startup.ts']);
traceCost();
run('npx', ['tsx', 'bench/gateway/soak.ts', ...args]);
run('npx', ['tsx', 'bench/gateway/hostile.ts']);
run('npx', ['tsx', 'bench/store/usage-scale.ts']);
run('npx', ['tsx', 'bench/ocr/run.ts']);
