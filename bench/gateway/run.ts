/**
 * Gateway overhead, side by side in one run: the same chat request sent straight to a fast upstream
 * (direct), through a bare Node proxy that only pipes bytes (bare-proxy.mjs: the floor), and through
 * Switchyard (auth, a per-key rate limit, the usage ledger, the request log and metrics all on).
 * Prints throughput, added latency, time to first byte and CPU per request with the ratios to the
 * bare proxy, then a CPU profile of the gateway under load, its idle memory and the ledger's cost.
 *
 *   npx tsx bench/gateway/run.ts [--seconds 5] [--rate 1000] [--concurrency 32] [--stream-concurrency 16]
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { summariseCpuProfile, type CpuProfile } from './cpu-profile.js';
import { measureIdleMemory } from './idle-memory.js';
import { measureLedgerCost } from './ledger-cost.js';
import { fixedRate, fullLoad, percentile, type LoadResult, type Target } from './load.js';
import { cpuMicros } from './process-stats.js';
import { ADMIN_KEY, chatBody, startBenchProcesses, type BenchProcesses } from './processes.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const seconds = Number(args.get('--seconds') ?? 5);
const rate = Number(args.get('--rate') ?? 1000);
const concurrency = Number(args.get('--concurrency') ?? 32);
const streamConcurrency = Number(args.get('--stream-concurrency') ?? 16);

type Via = 'direct' | 'bare' | 'gateway';
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  firstByteP50: number;
  errors: number;
  /** CPU of the proxy in between (none for direct), per answered request, in microseconds. */
  cpuPerRequest: number;
}

function targets(processes: BenchProcesses, key: string) {
  const origin: Record<Via, string> = { direct: `http://127.0.0.1:${processes.upstreamPort}`, bare: processes.bareProxyUrl, gateway: processes.gatewayUrl };
  const pid: Record<Via, number | undefined> = { direct: undefined, bare: processes.bareProxy.pid, gateway: processes.gateway.pid };
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

async function measure(run: (target: Target) => Promise<LoadResult>, target: Target, pid: number | undefined): Promise<Measured> {
  // Each scenario runs once unmeasured first, so connections, JIT and caches are warm: steady state is measured.
  await run(target);
  const cpuBefore = pid ? cpuMicros(pid) : 0;
  const result = await run(target);
  const cpu = pid ? cpuMicros(pid) - cpuBefore : 0;
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const firstBytes = [...result.firstBytes].sort((a, b) => a - b);
  return {
    rps: result.requests / result.seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    firstByteP50: percentile(firstBytes, 50),
    errors: result.errors,
    cpuPerRequest: result.requests ? cpu / result.requests : NaN,
  };
}

const VIAS: Via[] = ['direct', 'bare', 'gateway'];

async function measureAll(run: (target: Target) => Promise<LoadResult>, target: (via: Via) => { target: Target; pid?: number }) {
  const results = {} as Record<Via, Measured>;
  for (const via of VIAS) results[via] = await measure(run, target(via).target, target(via).pid);
  return results;
}

const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

function table(rows: string[][]) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('   '));
}

async function overhead() {
  const processes = await startBenchProcesses();
  try {
    const target = targets(processes, await processes.createKey());
    const plainLoad = await measureAll((t) => fullLoad(t, concurrency, seconds), (via) => target(via, false));
    const plainRate = await measureAll((t) => fixedRate(t, rate, seconds), (via) => target(via, false));
    const streamLoad = await measureAll((t) => fullLoad(t, streamConcurrency, seconds), (via) => target(via, true));
    const streamRate = await measureAll((t) => fixedRate(t, rate, seconds), (via) => target(via, true));
    const usage = (await (await fetch(`${processes.gatewayUrl}/account/usage`, { headers: { 'x-api-key': ADMIN_KEY } })).json()) as { usage: { total_requests: number } };

    const added = (results: Record<Via, Measured>, field: 'p50' | 'p99' | 'firstByteP50', via: Via) => results[via][field] - results.direct[field];
    const errors = [plainLoad, plainRate, streamLoad, streamRate].reduce((sum, r) => sum + r.direct.errors + r.bare.errors + r.gateway.errors, 0);
    console.log(`\nGateway overhead beside a bare Node proxy (${seconds} s per run, after a warm-up run; ${usage.usage.total_requests} requests in the usage ledger; ${errors} errors)\n`);
    table([
      ['', 'direct', 'bare proxy', 'Switchyard', 'Switchyard / bare', 'target'],
      [`plain, closed loop ${concurrency} conns (req/s)`, fmt(plainLoad.direct.rps, 0), fmt(plainLoad.bare.rps, 0), fmt(plainLoad.gateway.rps, 0), `${fmt(plainLoad.gateway.rps / plainLoad.bare.rps)}×`, '≥ 0.70×'],
      [`streamed (20 chunks), closed loop ${streamConcurrency} conns (req/s)`, fmt(streamLoad.direct.rps, 0), fmt(streamLoad.bare.rps, 0), fmt(streamLoad.gateway.rps, 0), `${fmt(streamLoad.gateway.rps / streamLoad.bare.rps)}×`, '≥ 0.60×'],
      [`plain, ${rate} req/s: added p50 (ms)`, '', fmt(added(plainRate, 'p50', 'bare')), fmt(added(plainRate, 'p50', 'gateway')), `+${fmt(added(plainRate, 'p50', 'gateway') - added(plainRate, 'p50', 'bare'))} ms`, '≤ +0.10 ms'],
      [`plain, ${rate} req/s: added p99 (ms)`, '', fmt(added(plainRate, 'p99', 'bare')), fmt(added(plainRate, 'p99', 'gateway')), `+${fmt(added(plainRate, 'p99', 'gateway') - added(plainRate, 'p99', 'bare'))} ms`, ''],
      [`streamed, ${rate} req/s: added first byte p50 (ms)`, '', fmt(added(streamRate, 'firstByteP50', 'bare')), fmt(added(streamRate, 'firstByteP50', 'gateway')), `+${fmt(added(streamRate, 'firstByteP50', 'gateway') - added(streamRate, 'firstByteP50', 'bare'))} ms`, '≤ +0.50 ms'],
      [`streamed, ${rate} req/s: added p50 to the last chunk (ms)`, '', fmt(added(streamRate, 'p50', 'bare')), fmt(added(streamRate, 'p50', 'gateway')), `+${fmt(added(streamRate, 'p50', 'gateway') - added(streamRate, 'p50', 'bare'))} ms`, ''],
      ['CPU per request, plain closed loop (µs)', '', fmt(plainLoad.bare.cpuPerRequest, 0), fmt(plainLoad.gateway.cpuPerRequest, 0), `${fmt(plainLoad.gateway.cpuPerRequest / plainLoad.bare.cpuPerRequest)}×`, ''],
      ['CPU per request, streamed closed loop (µs)', '', fmt(streamLoad.bare.cpuPerRequest, 0), fmt(streamLoad.gateway.cpuPerRequest, 0), `${fmt(streamLoad.gateway.cpuPerRequest / streamLoad.bare.cpuPerRequest)}×`, ''],
      ['CPU per request, plain 1000 req/s (µs)', '', fmt(plainRate.bare.cpuPerRequest, 0), fmt(plainRate.gateway.cpuPerRequest, 0), `${fmt(plainRate.gateway.cpuPerRequest / plainRate.bare.cpuPerRequest)}×`, ''],
    ]);
  } finally {
    await processes.stop();
  }
}

/** The gateway under closed-loop load, half plain and half streamed, with V8's sampling profiler on. */
async function profile() {
  const processes = await startBenchProcesses(join(import.meta.dirname, 'instrumented-gateway.mjs'));
  let recorded: CpuProfile;
  try {
    const ask = async <T>(message: string): Promise<T> => {
      const answer = once(processes.gateway, 'message') as Promise<[T]>;
      processes.gateway.send(message);
      return (await answer)[0];
    };
    const target = targets(processes, await processes.createKey());
    const load = () => Promise.all([fullLoad(target('gateway', false).target, concurrency / 2, seconds), fullLoad(target('gateway', true).target, streamConcurrency / 2, seconds)]);
    await load();
    await ask('profile-start');
    await load();
    recorded = await ask<CpuProfile>('profile-stop');
  } finally {
    await processes.stop();
  }
  const { byPlace, byFunction } = summariseCpuProfile(recorded);
  console.log(`\nWhere the gateway's CPU goes under load (V8 CPU profile, self time, share of busy time; ${seconds} s closed loop, plain and streamed, after a warm-up run)\n`);
  table([['where', 'share'], ...byPlace.map((share) => [share.name, `${fmt(share.percent, 1)} %`])]);
  console.log('');
  table([['function', 'share'], ...byFunction.map((share) => [share.name, `${fmt(share.percent, 1)} %`])]);
}

async function main() {
  await overhead();
  await profile();
  const idle = await measureIdleMemory();
  console.log(`\nIdle memory of the headless gateway, default configuration, engines warm: ${fmt(idle.rssMiB, 0)} MiB resident (target < 200 MiB; ready after ${fmt(idle.readyMs / 1000, 1)} s)`);
  const ledger = await measureLedgerCost();
  const micros = (value: number) => `${value.toFixed(1)} µs`;
  console.log(`\nUsage ledger, cost per entry written before its answer (${ledger.entries} entries, WAL, synchronous=NORMAL):`);
  console.log(`  one answer at a time ${micros(ledger.oneAtATimeMicros)}, 32 answers sharing a commit ${micros(ledger.groupOf32Micros)}; buffered 200 to a transaction (not durable) ${micros(ledger.bufferedMicros)}`);
}

await main();
