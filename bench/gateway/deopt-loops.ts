/**
 * Deoptimisation loops under load: the gateway runs with `--trace-deopt`, is warmed up, and then
 * every deoptimisation during `--seconds` of closed-loop load is counted by function and reason.
 * A compiled build shows a few one-off `wrong map` lines; a function deoptimised again and again for
 * the same reason is a loop, which costs more than anything written in it (docs/performance.md).
 *
 *   npx tsx bench/gateway/deopt-loops.ts [--gateway dist/gateway/src/cli.js] [--seconds 10] [--stream] [--cache-hit]
 *
 * Exits 1 when a function was deoptimised `--loop` times (default 5) or more.
 */
import { join } from 'node:path';
import { fullLoad } from './load.js';
import { cachedChatBody, chatBody, chatTarget, serveNodeFlags, startBenchProcesses } from './processes.js';
import { warmUp } from './warm-up.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const cli = args.get('--gateway') ?? join(import.meta.dirname, '../../dist/gateway/src/cli.js');
const seconds = Number(args.get('--seconds') ?? 10);
const loop = Number(args.get('--loop') ?? 5);
const stream = process.argv.includes('--stream');
const cacheHit = process.argv.includes('--cache-hit');
const body = cacheHit ? cachedChatBody(stream) : chatBody(stream);

const processes = await startBenchProcesses(
  cli,
  [...serveNodeFlags(), '--trace-deopt'],
  {},
  cacheHit ? { upstreamDelayMs: 0 } : undefined,
);
let output = '';
let counting = false;
processes.gateway.stdout!.on('data', (chunk: Buffer) => {
  if (counting) output += chunk.toString();
});
try {
  const key = await processes.createKey();
  const target = chatTarget(processes.gatewayUrl, key, body);
  await warmUp([target], [processes.gateway.pid!], 16);
  counting = true;
  const result = await fullLoad(target, 16, seconds);
  counting = false;
  const counts = new Map<string, number>();
  for (const match of output.matchAll(/reason: ([^)]*)\): begin\. deoptimizing 0x[0-9a-f]+ <JSFunction ([^ >]*)/g)) {
    const label = `${match[2] || '(anonymous)'}: ${match[1]}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  console.log(
    `${stream ? 'streamed' : 'plain'} chat${cacheHit ? ', every request a cache hit' : ''}: ${result.requests} requests in ${seconds} s after warm-up, ${rows.reduce((sum, [, n]) => sum + n, 0)} deoptimisations`,
  );
  for (const [label, count] of rows.slice(0, 15)) console.log(`${String(count).padStart(6)}  ${label}`);
  const loops = rows.filter(([, count]) => count >= loop);
  console.log(loops.length === 0 ? 'no loop' : `${loops.length} function(s) deoptimised ${loop} times or more: a loop`);
  process.exitCode = loops.length === 0 ? 0 : 1;
} finally {
  await processes.stop();
}
