/**
 * Gateway overhead, side by side in one run: the same chat request sent straight to a fast upstream
 * (direct), through a bare Node proxy that only pipes bytes (bare-proxy.mjs: the floor), through a
 * minimal Fastify proxy that parses and re-serialises the JSON (fastify-proxy.mjs: the framework's
 * floor), and through Switchyard (auth, a per-key rate limit, the usage ledger, the request log and
 * metrics all on).
 * Prints throughput, added latency, time to first byte and CPU per request with the ratios to the
 * bare proxy, the same with team mode's Redis on (GATEWAY_REDIS_URL, a key prefix of its own), then
 * a CPU profile of the gateway under load, its idle memory and the ledger's cost.
 *
 *   npx tsx bench/gateway/run.ts [--seconds 5] [--rate 1000] [--concurrency 32] [--stream-concurrency 16]
 *     [--redis redis://127.0.0.1:6379] [--only solo,team,cache,profile,memory,ledger] [--cache-upstream-ms 20] [--profile-out gateway.cpuprofile]
 *     [--profile-load mixed|plain|streamed] [--profile-rate N (open loop instead of closed)] [--profile-team (the profiled gateway in team mode)] [--gateway path/to/dist/gateway/src/cli.js (another build, for A/B runs)]
 *
 * `--only sizing` (not in the default run): team mode's sizing on PostgreSQL (--database, default
 * TEST_DATABASE_URL or postgres://127.0.0.1:5432/postgres) and Redis: requests per second per
 * instance and the database and Redis work per 1,000 requests (bench/gateway/sizing.ts).
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile.js';
import { measureIdleMemory } from './idle-memory.js';
import { measureLedgerCost } from './ledger-cost.js';
import { measureCacheHits } from './cache-hit.js';
import { measureSizing } from './sizing.js';
import { fixedRate, fullLoad, percentile, type LoadResult, type Target } from './load.js';
import { cpuMicros, THREAD_GROUPS, threadCpuMicros, type ThreadGroup } from './process-stats.js';
import { ADMIN_KEY, chatBody, startBenchProcesses, type BenchProcesses } from './processes.js';
import { warmUp, type WarmUp } from './warm-up.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const seconds = Number(args.get('--seconds') ?? 5);
const rate = Number(args.get('--rate') ?? 1000);
const concurrency = Number(args.get('--concurrency') ?? 32);
const streamConcurrency = Number(args.get('--stream-concurrency') ?? 16);
const redisUrl = args.get('--redis') ?? process.env.GATEWAY_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sections = new Set((args.get('--only') ?? 'solo,team,cache,profile,memory,ledger').split(','));
const profileLoad = args.get('--profile-load') ?? 'mixed';
/** Profile at this many requests per second (open loop, where latency is measured) instead of the closed loop. */
const profileRate = args.has('--profile-rate') ? Number(args.get('--profile-rate')) : undefined;
const gatewayScript = args.get('--gateway');

type Via = 'direct' | 'bare' | 'fastify' | 'gateway';
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  firstByteP50: number;
  errors: number;
  /** CPU of the proxy in between (none for direct), per answered request, in microseconds. */
  cpuPerRequest: number;
  /** The same by kind of thread (process-stats.ts `threadCpuMicros`). */
  cpuByThread: Record<ThreadGroup, number>;
}

function targets(processes: BenchProcesses, key: string) {
  const origin: Record<Via, string> = {
    direct: `http://127.0.0.1:${processes.upstreamPort}`,
    bare: processes.bareProxyUrl,
    fastify: processes.fastifyProxyUrl,
    gateway: processes.gatewayUrl,
  };
  const pid: Record<Via, number | undefined> = {
    direct: undefined,
    bare: processes.bareProxy.pid,
    fastify: processes.fastifyProxy.pid,
    gateway: processes.gateway.pid,
  };
  return (via: Via, stream: boolean) => ({
    pid: pid[via],
    target: {
      origin: origin[via],
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', ...(via === 'gateway' ? { authorization: `Bearer ${key}` } : {}) },
      body: chatBody(stream),
    } satisfies Target,
  });
}

async function measure(
  run: (target: Target) => Promise<LoadResult>,
  target: Target,
  pid: number | undefined,
): Promise<Measured> {
  // Each scenario runs once unmeasured first, so connections, JIT and caches are warm: steady state is measured.
  await run(target);
  const cpuBefore = pid ? cpuMicros(pid) : 0;
  const threadsBefore = pid ? threadCpuMicros(pid) : undefined;
  const result = await run(target);
  const cpu = pid ? cpuMicros(pid) - cpuBefore : 0;
  const threadsAfter = pid ? threadCpuMicros(pid) : undefined;
  const perRequest = (micros: number) => (result.requests ? micros / result.requests : NaN);
  const cpuByThread = Object.fromEntries(
    THREAD_GROUPS.map((group) => [
      group,
      threadsBefore && threadsAfter ? perRequest(threadsAfter[group] - threadsBefore[group]) : NaN,
    ]),
  ) as Record<ThreadGroup, number>;
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const firstBytes = [...result.firstBytes].sort((a, b) => a - b);
  return {
    rps: result.requests / result.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    firstByteP50: percentile(firstBytes, 50),
    errors: result.errors,
    cpuPerRequest: perRequest(cpu),
    cpuByThread,
  };
}

const VIAS: Via[] = ['direct', 'bare', 'fastify', 'gateway'];

async function measureAll(
  run: (target: Target) => Promise<LoadResult>,
  target: (via: Via) => { target: Target; pid?: number },
) {
  const results = {} as Record<Via, Measured>;
  for (const via of VIAS) results[via] = await measure(run, target(via).target, target(via).pid);
  return results;
}

/** How the processes were brought to steady state, for the headings. */
const warmedUp = (warm: WarmUp) =>
  warm.settled
    ? `compiled after ${warm.seconds} s of warm-up load`
    : `still compiling after ${warm.seconds} s of warm-up load: figures include it`;

const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
/** A difference with its sign: +0.12 or -0.69. */
const signed = (value: number) => `${value < 0 ? '' : '+'}${fmt(value)}`;

function table(rows: string[][]) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
        .join('   '),
    );
}

interface Overhead {
  plainLoad: Record<Via, Measured>;
  plainRate: Record<Via, Measured>;
  streamLoad: Record<Via, Measured>;
  streamRate: Record<Via, Measured>;
}

const added = (results: Record<Via, Measured>, field: 'p50' | 'p99' | 'firstByteP50', via: Via) =>
  results[via][field] - results.direct[field];
const beyondBare = (results: Record<Via, Measured>, field: 'p50' | 'p99' | 'firstByteP50') =>
  added(results, field, 'gateway') - added(results, field, 'bare');

async function overhead(mode: string, env: Record<string, string> = {}): Promise<Overhead> {
  const processes = await startBenchProcesses(gatewayScript, undefined, env);
  try {
    const target = targets(processes, await processes.createKey());
    const warm = await warmUp(
      (['gateway', 'bare', 'fastify'] as const).flatMap((via) => [target(via, false).target, target(via, true).target]),
      [processes.gateway.pid!, processes.bareProxy.pid!, processes.fastifyProxy.pid!],
      concurrency,
    );
    const plainLoad = await measureAll(
      (t) => fullLoad(t, concurrency, seconds),
      (via) => target(via, false),
    );
    const plainRate = await measureAll(
      (t) => fixedRate(t, rate, seconds),
      (via) => target(via, false),
    );
    const streamLoad = await measureAll(
      (t) => fullLoad(t, streamConcurrency, seconds),
      (via) => target(via, true),
    );
    const streamRate = await measureAll(
      (t) => fixedRate(t, rate, seconds),
      (via) => target(via, true),
    );
    const usage = (await (
      await fetch(`${processes.gatewayUrl}/account/usage`, { headers: { 'x-api-key': ADMIN_KEY } })
    ).json()) as { usage: { total_requests: number } };

    const errors = [plainLoad, plainRate, streamLoad, streamRate].reduce(
      (sum, r) => sum + VIAS.reduce((viaSum, via) => viaSum + r[via].errors, 0),
      0,
    );
    console.log(
      `\nGateway overhead beside a bare Node proxy, ${mode} (${seconds} s per run; ${warmedUp(warm)}, then a warm-up run per scenario; ${usage.usage.total_requests} requests in the usage ledger; ${errors} errors)\n`,
    );
    const cpu = (results: Record<Via, Measured>) => [
      fmt(results.bare.cpuPerRequest, 0),
      fmt(results.fastify.cpuPerRequest, 0),
      fmt(results.gateway.cpuPerRequest, 0),
      `${fmt(results.gateway.cpuPerRequest / results.bare.cpuPerRequest)}×`,
    ];
    const latency = (results: Record<Via, Measured>, field: 'p50' | 'p99' | 'firstByteP50') => [
      fmt(added(results, field, 'bare')),
      fmt(added(results, field, 'fastify')),
      fmt(added(results, field, 'gateway')),
      `${signed(beyondBare(results, field))} ms`,
    ];
    const throughput = (results: Record<Via, Measured>) => [
      fmt(results.direct.rps, 0),
      fmt(results.bare.rps, 0),
      fmt(results.fastify.rps, 0),
      fmt(results.gateway.rps, 0),
      `${fmt(results.gateway.rps / results.bare.rps)}×`,
    ];
    table([
      ['', 'direct', 'bare proxy', 'Fastify proxy', 'Switchyard', 'Switchyard / bare', 'target'],
      [`plain, closed loop ${concurrency} conns (req/s)`, ...throughput(plainLoad), '≥ 0.70×'],
      [`streamed (20 chunks), closed loop ${streamConcurrency} conns (req/s)`, ...throughput(streamLoad), '≥ 0.60×'],
      [`plain, ${rate} req/s: added p50 (ms)`, '', ...latency(plainRate, 'p50'), '≤ +0.10 ms'],
      [`plain, ${rate} req/s: added p99 (ms)`, '', ...latency(plainRate, 'p99'), ''],
      [`streamed, ${rate} req/s: added first byte p50 (ms)`, '', ...latency(streamRate, 'firstByteP50'), '≤ +0.50 ms'],
      [`streamed, ${rate} req/s: added p50 to the last chunk (ms)`, '', ...latency(streamRate, 'p50'), ''],
      ['CPU per request, plain closed loop (µs)', '', ...cpu(plainLoad), ''],
      ['CPU per request, streamed closed loop (µs)', '', ...cpu(streamLoad), ''],
      [`CPU per request, plain ${rate} req/s (µs)`, '', ...cpu(plainRate), ''],
      [`CPU per request, streamed ${rate} req/s (µs)`, '', ...cpu(streamRate), ''],
    ]);
    const byThread = (measured: Measured) =>
      THREAD_GROUPS.map((group) => `${group} ${fmt(measured.cpuByThread[group], 0)}`).join(', ');
    console.log(`\nSwitchyard's CPU per request by thread (µs), plain closed loop: ${byThread(plainLoad.gateway)}`);
    console.log(`Switchyard's CPU per request by thread (µs), streamed closed loop: ${byThread(streamLoad.gateway)}`);
    return { plainLoad, plainRate, streamLoad, streamRate };
  } finally {
    await processes.stop();
  }
}

/** Team mode beside solo: the same key (with a requests-per-minute limit, counted exactly in Redis) and the same loads. */
function compareTeam(solo: Overhead, team: Overhead) {
  console.log(`\nTeam mode (Redis at ${redisUrl}) beside solo, beyond the bare proxy\n`);
  table([
    ['', 'solo', 'team (Redis)'],
    [
      `plain, ${rate} req/s: added p50 beyond bare (ms)`,
      `${signed(beyondBare(solo.plainRate, 'p50'))}`,
      `${signed(beyondBare(team.plainRate, 'p50'))}`,
    ],
    [
      `plain, ${rate} req/s: added p99 beyond bare (ms)`,
      `${signed(beyondBare(solo.plainRate, 'p99'))}`,
      `${signed(beyondBare(team.plainRate, 'p99'))}`,
    ],
    [
      `streamed, ${rate} req/s: added first byte p50 beyond bare (ms)`,
      `${signed(beyondBare(solo.streamRate, 'firstByteP50'))}`,
      `${signed(beyondBare(team.streamRate, 'firstByteP50'))}`,
    ],
    [
      'plain, closed loop: Switchyard / bare',
      `${fmt(solo.plainLoad.gateway.rps / solo.plainLoad.bare.rps)}×`,
      `${fmt(team.plainLoad.gateway.rps / team.plainLoad.bare.rps)}×`,
    ],
    [
      'CPU per request, plain closed loop (µs)',
      fmt(solo.plainLoad.gateway.cpuPerRequest, 0),
      fmt(team.plainLoad.gateway.cpuPerRequest, 0),
    ],
  ]);
}

/** The gateway under closed-loop load (half plain and half streamed, or one of them), with V8's sampling profiler on. */
async function profile() {
  const prefix = `switchyard-bench-profile-${process.pid}:`;
  const team: Record<string, string> = process.argv.includes('--profile-team')
    ? { GATEWAY_REDIS_URL: redisUrl, GATEWAY_REDIS_PREFIX: prefix }
    : {};
  const processes = await startBenchProcesses(join(import.meta.dirname, 'instrumented-gateway.mjs'), undefined, team);
  let recorded: CpuProfile;
  let warmNote = '';
  try {
    const ask = async <T>(message: string): Promise<T> => {
      const answer = once(processes.gateway, 'message') as Promise<[T]>;
      processes.gateway.send(message);
      return (await answer)[0];
    };
    const target = targets(processes, await processes.createKey());
    const half = profileLoad === 'mixed' ? 2 : 1;
    const load = () =>
      Promise.all([
        profileLoad === 'streamed'
          ? undefined
          : profileRate
            ? fixedRate(target('gateway', false).target, profileRate / half, seconds)
            : fullLoad(target('gateway', false).target, concurrency / half, seconds),
        profileLoad === 'plain'
          ? undefined
          : profileRate
            ? fixedRate(target('gateway', true).target, profileRate / half, seconds)
            : fullLoad(target('gateway', true).target, streamConcurrency / half, seconds),
      ]);
    const warm = await warmUp(
      [target('gateway', false).target, target('gateway', true).target],
      [processes.gateway.pid!],
      concurrency,
    );
    warmNote = warmedUp(warm);
    await load();
    await ask('profile-start');
    await load();
    recorded = await ask<CpuProfile>('profile-stop');
  } finally {
    await processes.stop();
    if ('GATEWAY_REDIS_URL' in team) await dropRedisKeys(prefix);
  }
  const saveTo = args.get('--profile-out');
  if (saveTo) writeFileSync(saveTo, JSON.stringify(recorded));
  const { byPlace, byFunction } = summariseCpuProfile(recorded);
  console.log(
    `\nWhere the gateway's CPU goes under load (V8 CPU profile, self time, share of busy time; ${seconds} s ${profileRate ? `at ${profileRate} req/s` : 'closed loop'}, ${profileLoad === 'mixed' ? 'plain and streamed' : profileLoad}${'GATEWAY_REDIS_URL' in team ? ', team mode' : ''}; ${warmNote}, then a warm-up run)\n`,
  );
  table([['where', 'share'], ...byPlace.map((share) => [share.name, `${fmt(share.percent, 1)} %`])]);
  console.log('');
  table([['function', 'share'], ...byFunction.map((share) => [share.name, `${fmt(share.percent, 1)} %`])]);
}

/** Whether a Redis answers at `redisUrl`: without one the team scenario is skipped, not failed. */
async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** The team scenario's keys go when it is over (the Redis may be shared). */
async function dropRedisKeys(prefix: string) {
  const redis = new Redis(redisUrl);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

async function sizing() {
  const databaseUrl = args.get('--database') ?? process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/postgres';
  const requests = 1000;
  const figures = await measureSizing({ databaseUrl, redisUrl, seconds, concurrency, requests });
  const per = (value: number) => fmt(value, 0);
  console.log(
    `\nTeam mode sizing: one instance on PostgreSQL and Redis (${figures.redis}), plain chat on the fast fake upstream; ${figures.errors} errors`,
  );
  console.log(
    `  closed loop, ${concurrency} connections, ${seconds} s: ${fmt(figures.rps, 0)} req/s per instance, ${fmt(figures.cpuPerRequestMicros, 0)} µs of gateway CPU per request`,
  );
  console.log(
    `  per ${figures.counted} requests (${concurrency} at a time): PostgreSQL ${per(figures.database.transactions)} transactions committed, ${per(figures.database.inserted)} rows inserted, ${per(figures.database.updated)} updated, ${per(figures.database.returned)} read`,
  );
  const commands = Object.entries(figures.redisCommands.byCommand)
    .sort((a, b) => b[1] - a[1])
    .map(([command, calls]) => `${command} ${calls}`)
    .join(', ');
  console.log(`  per ${figures.counted} requests: Redis ${figures.redisCommands.total} commands (${commands})`);
  console.log(
    `  idle, ${figures.idle.seconds} s without requests: ${figures.idle.transactions} transactions, ${figures.idle.redisCommands} Redis commands`,
  );
}

async function main() {
  if (sections.has('sizing')) await sizing();
  const solo = sections.has('solo') ? await overhead('solo') : undefined;
  if (sections.has('team') && !(await redisAnswers()))
    console.log(`\nTeam mode skipped: no Redis answers at ${redisUrl} (--redis <url> or GATEWAY_REDIS_URL).`);
  else if (sections.has('team')) {
    const prefix = `switchyard-bench-${process.pid}:`;
    const team = await overhead('team mode', { GATEWAY_REDIS_URL: redisUrl, GATEWAY_REDIS_PREFIX: prefix }).finally(
      () => dropRedisKeys(prefix),
    );
    if (solo) compareTeam(solo, team);
  }
  if (sections.has('cache')) {
    const upstreamDelayMs = Number(args.get('--cache-upstream-ms') ?? 20);
    const rows = await measureCacheHits({
      seconds,
      rate,
      concurrency,
      streamConcurrency,
      gatewayScript,
      upstreamDelayMs,
    });
    console.log(
      `\nResponse cache: every request a hit, beside the bare proxy and an uncached route (${seconds} s per run)\n`,
    );
    table(rows);
  }
  if (sections.has('profile')) await profile();
  if (sections.has('memory')) {
    const idle = await measureIdleMemory();
    console.log(
      `\nIdle memory of the headless gateway, default configuration, engines warm: ${fmt(idle.rssMiB, 0)} MiB resident (target < 200 MiB; ready after ${fmt(idle.readyMs / 1000, 1)} s)`,
    );
  }
  if (!sections.has('ledger')) return;
  const ledger = await measureLedgerCost();
  const micros = (value: number) => `${value.toFixed(1)} µs`;
  console.log(
    `\nUsage ledger, cost per entry written before its answer (${ledger.entries} entries, WAL, synchronous=NORMAL):`,
  );
  console.log(
    `  one answer at a time ${micros(ledger.oneAtATimeMicros)}, 32 answers sharing a commit ${micros(ledger.groupOf32Micros)}; buffered 200 to a transaction (not durable) ${micros(ledger.bufferedMicros)}`,
  );
}

await main();
