/**
 * A/B of two gateway builds on a busy machine: both run at the same time, each with its own fast fake
 * upstream, under the same closed-loop load, so both see the same contention (one after the other, a
 * shared 2-core machine moves by more than the change being measured). Prints, per round and as the
 * median of the per-round ratios, requests per second and gateway CPU per request of B against A.
 *
 *   npx tsx bench/gateway/ab.ts --a /path/to/old/dist/gateway/src/cli.js [--b dist/gateway/src/cli.js]
 *     [--rounds 5] [--passes 1] [--seconds 2] [--concurrency 16] [--stream] [--rate N] [--team [redis://127.0.0.1:6379]] [--cache-hit]
 *
 * --passes N runs the rounds N times, each time on fresh processes (the order they start in
 * alternating), and summarises all rounds together, with each pass's median beside.
 *
 * With --rate, each side gets N requests per second (open loop) instead of the closed loop, and the
 * rounds report latency: p50 and p99 (ms) and, streamed, the first byte's p50.
 *
 * --team runs both in team mode on that Redis (each under a key prefix of its own, deleted afterwards);
 * --team-b only B, so that one build solo (A) and in team mode (B) show what team mode costs.
 * --cache-hit sends every request to a route with a response cache (`bench-cached`, at temperature 0):
 * after the first, each is a hit.
 * An A/A run (the same build as A and B) shows this machine's noise: differences smaller than it are not findings.
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { fixedRate, fullLoad, percentile, type LoadResult, type Target } from './load.js';
import { cpuMicros } from './process-stats.js';
import { cachedChatBody, chatBody, chatTarget, startBenchProcesses, type BenchProcesses } from './processes.js';
import { warmUp } from './warm-up.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const a = args.get('--a');
if (!a) throw new Error('--a <path to the other build’s dist/gateway/src/cli.js> is required');
const b = args.get('--b') ?? join(import.meta.dirname, '../../dist/gateway/src/cli.js');
const rounds = Number(args.get('--rounds') ?? 5);
const passes = Number(args.get('--passes') ?? 1);
const seconds = Number(args.get('--seconds') ?? 2);
const concurrency = Number(args.get('--concurrency') ?? 16);
const stream = process.argv.includes('--stream');
const rate = args.has('--rate') ? Number(args.get('--rate')) : undefined;
const cacheHit = process.argv.includes('--cache-hit');
const body = cacheHit ? cachedChatBody(stream) : chatBody(stream);
const teamFlag = args.has('--team-b') ? '--team-b' : '--team';
const teamRedis = args.has(teamFlag)
  ? args.get(teamFlag)?.startsWith('redis')
    ? args.get(teamFlag)!
    : 'redis://127.0.0.1:6379'
  : undefined;
const teamSides = teamFlag === '--team-b' ? [1] : [0, 1];

interface Round {
  rps: number;
  cpuPerRequest: number;
  p50: number;
  p99: number;
  firstByteP50: number;
}

const run = (target: Target): Promise<LoadResult> =>
  rate === undefined ? fullLoad(target, concurrency, seconds) : fixedRate(target, rate, seconds);
const sortedCopy = (values: number[]) => [...values].sort((x, y) => x - y);

async function loadBoth(sides: { processes: BenchProcesses; key: string }[]): Promise<Round[]> {
  const before = sides.map((side) => cpuMicros(side.processes.gateway.pid!));
  const results = await Promise.all(sides.map((side) => run(chatTarget(side.processes.gatewayUrl, side.key, body))));
  return results.map((result, i) => ({
    rps: result.requests / result.seconds,
    cpuPerRequest: (cpuMicros(sides[i].processes.gateway.pid!) - before[i]) / result.requests,
    p50: percentile(sortedCopy(result.latencies), 50),
    p99: percentile(sortedCopy(result.latencies), 99),
    firstByteP50: percentile(sortedCopy(result.firstBytes), 50),
  }));
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
/** The median and, in brackets, the middle half of the rounds (their spread: how far one round says little). */
const summary = (values: number[], digits: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))].toFixed(digits);
  return `${median(values).toFixed(digits)} [${at(0.25)} to ${at(0.75)}]`;
};

const prefixes = [`switchyard-ab-a-${process.pid}:`, `switchyard-ab-b-${process.pid}:`];
const ratios = {
  rps: [] as number[],
  cpu: [] as number[],
  p50: [] as number[],
  p99: [] as number[],
  firstByte: [] as number[],
};
const passMedians: number[] = [];
const load = rate === undefined ? `closed loop ${concurrency} connections each` : `${rate} requests per second each`;
console.log(
  `A/B, ${stream ? 'streamed' : 'plain'} chat${cacheHit ? ', every request a cache hit' : ''}${teamRedis ? (teamSides.length === 1 ? ', B in team mode' : ', team mode') : ''}, ${load}, ${passes > 1 ? `${passes} passes of ` : ''}${rounds} rounds of ${seconds} s, both at once\nA ${a}\nB ${b}\n`,
);
for (let pass = 1; pass <= passes; pass++) {
  if (passes > 1) console.log(`pass ${pass}:`);
  const passRatios = await runPass(pass);
  passMedians.push(median(passRatios));
}
console.log(
  `\nmedian B/A [middle half of the rounds]: req/s ${summary(ratios.rps, 2)}, CPU per request ${summary(ratios.cpu, 2)}`,
);
if (passes > 1)
  console.log(`CPU per request B/A, each pass's median: ${passMedians.map((m) => m.toFixed(2)).join(', ')}`);
if (rate !== undefined)
  console.log(
    `median B - A: p50 ${summary(ratios.p50, 3)} ms, p99 ${summary(ratios.p99, 3)} ms${stream ? `, first byte p50 ${summary(ratios.firstByte, 3)} ms` : ''}`,
  );

/**
 * Fresh processes for both builds, warmed up, then the rounds; answers this pass's CPU ratios. A
 * process's compiled code differs from run to run (what V8 inlined, whether something deoptimised),
 * so several passes say more than as many rounds on the same processes. Which build starts first
 * alternates with the pass.
 */
async function runPass(pass: number): Promise<number[]> {
  const order = pass % 2 ? [0, 1] : [1, 0];
  const sides: { processes: BenchProcesses; key: string }[] = [];
  for (const i of order) {
    const processes = await startBenchProcesses(
      [a, b][i],
      undefined,
      teamRedis && teamSides.includes(i) ? { GATEWAY_REDIS_URL: teamRedis, GATEWAY_REDIS_PREFIX: prefixes[i] } : {},
      cacheHit ? { upstreamDelayMs: 0 } : undefined,
    );
    sides[i] = { processes, key: await processes.createKey() };
  }
  const cpu: number[] = [];
  try {
    const warm = await warmUp(
      sides.map((side) => chatTarget(side.processes.gatewayUrl, side.key, body)),
      sides.map((side) => side.processes.gateway.pid!),
      2 * concurrency,
    );
    console.log(`${warm.settled ? 'compiled' : 'still compiling'} after ${warm.seconds} s of warm-up load`);
    await loadBoth(sides);
    for (let round = 1; round <= rounds; round++) {
      // Which side's load starts first alternates, so neither always has the head start.
      const [first, second] = round % 2 ? [0, 1] : [1, 0];
      const measured = await loadBoth([sides[first], sides[second]]);
      const [resultA, resultB] = round % 2 ? measured : [measured[1], measured[0]];
      ratios.rps.push(resultB.rps / resultA.rps);
      cpu.push(resultB.cpuPerRequest / resultA.cpuPerRequest);
      ratios.p50.push(resultB.p50 - resultA.p50);
      ratios.p99.push(resultB.p99 - resultA.p99);
      ratios.firstByte.push(resultB.firstByteP50 - resultA.firstByteP50);
      const side = (result: Round) =>
        `${result.rps.toFixed(0)} req/s, ${result.cpuPerRequest.toFixed(0)} µs CPU/request${rate === undefined ? '' : `, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms${stream ? `, first byte p50 ${result.firstByteP50.toFixed(2)} ms` : ''}`}`;
      console.log(`round ${round}: A ${side(resultA)}; B ${side(resultB)}`);
    }
  } finally {
    await Promise.all(sides.map((side) => side.processes.stop()));
    if (teamRedis) {
      const redis = new Redis(teamRedis);
      for (const prefix of prefixes) {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      }
      redis.disconnect();
    }
  }
  ratios.cpu.push(...cpu);
  return cpu;
}
