/**
 * What the garbage collector's pauses cost each request, build beside build: each gateway runs with
 * `--trace-gc` under the same closed-loop load at once (after warm-up), and the scavenges and
 * mark-compacts of `--seconds` of load are counted, with their main-thread time per request. More
 * scavenges per request means more allocated per request; a longer scavenge, more that survives it.
 *
 * With --nvp (`--trace-gc-nvp`) it also prints, per request, the bytes allocated, the bytes that
 * survived a scavenge in the young generation and the bytes promoted to the old one, and the scavenges'
 * time on V8's helper threads: counts that move far less with the machine's load than times do.
 *
 *   npx tsx bench/gateway/gc-per-request.ts <cli.js of build A> [<cli.js of build B> ...] [--seconds 10] [--nvp] [--cache-hit]
 */
import { fullLoad } from './load.js';
import { cachedChatBody, chatBody, chatTarget, serveNodeFlags, startBenchProcesses } from './processes.js';
import { warmUp } from './warm-up.js';

const argv = process.argv.slice(2);
const secondsAt = argv.indexOf('--seconds');
const seconds = secondsAt >= 0 ? Number(argv[secondsAt + 1]) : 10;
const nvp = argv.includes('--nvp');
const cacheHit = argv.includes('--cache-hit');
const clis = argv.filter(
  (arg, i) => arg !== '--nvp' && arg !== '--cache-hit' && (secondsAt < 0 || (i !== secondsAt && i !== secondsAt + 1)),
);

const sides = await Promise.all(
  clis.map(async (cli) => {
    const processes = await startBenchProcesses(
      cli,
      [...serveNodeFlags(), nvp ? '--trace-gc-nvp' : '--trace-gc'],
      {},
      cacheHit ? { upstreamDelayMs: 0 } : undefined,
    );
    const side = { cli, processes, key: await processes.createKey(), output: '', counting: false };
    processes.gateway.stdout!.on('data', (chunk: Buffer) => {
      if (side.counting) side.output += chunk.toString();
    });
    return side;
  }),
);
try {
  const targets = sides.map((side) =>
    chatTarget(side.processes.gatewayUrl, side.key, cacheHit ? cachedChatBody(false) : chatBody(false)),
  );
  await warmUp(
    targets,
    sides.map((side) => side.processes.gateway.pid!),
    32,
  );
  for (const side of sides) side.counting = true;
  const results = await Promise.all(targets.map((target) => fullLoad(target, 16, seconds)));
  sides.forEach((side, i) => {
    const lines = side.output.split('\n');
    if (nvp) {
      console.log(`${side.cli}\n  ${nvpPerRequest(lines, results[i].requests)}`);
      return;
    }
    const pauseMs = (kind: string) => {
      const matching = lines.filter((line) => line.includes(kind));
      const ms = matching.reduce((sum, line) => sum + Number(/, ([\d.]+) \/ [\d.]+ ms/.exec(line)?.[1] ?? 0), 0);
      return { count: matching.length, microsPerRequest: (ms * 1000) / results[i].requests };
    };
    const scavenges = pauseMs('Scavenge');
    const markCompacts = pauseMs('Mark-Compact');
    console.log(
      `${side.cli}\n  ${results[i].requests} requests; ${scavenges.count} scavenges (${(results[i].requests / Math.max(1, scavenges.count)).toFixed(0)} requests each), ${scavenges.microsPerRequest.toFixed(1)} µs per request on the main thread; ${markCompacts.count} mark-compacts, ${markCompacts.microsPerRequest.toFixed(1)} µs per request`,
    );
  });
} finally {
  await Promise.all(sides.map((side) => side.processes.stop()));
}

/** Sums `--trace-gc-nvp`'s fields over the scavenges (gc=s) and the full collections, per request. */
function nvpPerRequest(lines: string[], requests: number): string {
  const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  const scavenges = lines.filter((line) => / gc=s /.test(line));
  const full = lines.filter((line) => / gc=(mc|ms|mmc) /.test(line));
  const sum = (set: string[], name: string) => set.reduce((total, line) => total + field(line, name), 0);
  const perRequest = (value: number, scale: number) => ((value * scale) / requests).toFixed(1);
  return [
    `${requests} requests; ${scavenges.length} scavenges, ${full.length} full collections`,
    `allocated ${perRequest(sum(scavenges, 'allocated') + sum(full, 'allocated'), 1 / 1024)} KB`,
    `survived in young ${perRequest(sum(scavenges, 'new_space_survived'), 1)} B`,
    `promoted ${perRequest(sum(scavenges, 'promoted'), 1)} B`,
    `scavenge pause ${perRequest(sum(scavenges, 'pause'), 1000)} µs (roots ${perRequest(sum(scavenges, 'scavenge.roots'), 1000)}, helpers ${perRequest(sum(scavenges, 'background.scavenge.parallel'), 1000)})`,
    `full pauses ${perRequest(sum(full, 'pause'), 1000)} µs`,
  ].join('; ');
  // The pause can be much longer than its phases: on a busy machine the main thread waits for V8's
  // helper threads to be scheduled. The bytes are what to compare there.
}
