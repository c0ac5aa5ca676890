// `node scripts/run-parallel.mjs "cmd one" "cmd two" …`: runs the commands at the same time (each
// through the shell, as npm runs a script), prints each one's output whole once it ends, in the order
// given, and fails when any of them failed. `npm test` runs its checks this way: each is one process
// that uses mostly one core, so on CI's 2-core machine two at a time take about half as long.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs "<command>" ["<command>" …]');
  process.exit(2);
}

const started = Date.now();
const runs = commands.map(
  (command) =>
    new Promise((resolve) => {
      const begin = Date.now();
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
      child.on('close', (code, signal) =>
        resolve({
          command,
          code: code ?? 1,
          signal,
          output: Buffer.concat(output),
          seconds: (Date.now() - begin) / 1000,
        }),
      );
    }),
);

let failed = 0;
for (const run of runs) {
  const { command, code, signal, output, seconds } = await run;
  process.stdout.write(`\n> ${command}\n`);
  process.stdout.write(output);
  const how = code === 0 ? 'done' : `FAILED (${signal ?? `exit ${code}`})`;
  process.stdout.write(`> ${command}: ${how} in ${seconds.toFixed(1)} s\n`);
  if (code !== 0) failed++;
}
process.stdout.write(
  `\n${commands.length - failed} of ${commands.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
process.exit(failed > 0 ? 1 : 0);
