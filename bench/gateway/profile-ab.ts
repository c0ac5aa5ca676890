/**
 * Where B's CPU per request differs from A's: both builds run at once under the same closed-loop
 * load (as in ab.ts), each with V8's sampling profiler on during the measured rounds. Prints, per
 * request, the CPU of each thread group (event loop, worker threads, V8's helpers) from /proc, and the
 * event loop's self time by place and by function from the profiles, with B - A, largest first.
 *
 *   npx tsx bench/gateway/profile-ab.ts --a /path/to/old/dist/gateway/src/cli.js [--b dist/gateway/src/cli.js]
 *     [--rounds 4] [--seconds 3] [--concurrency 16] [--stream] [--cache-hit] [--heap] [--sort b] [--top 25]
 *
 * --heap samples allocations instead of time (V8's sampling heap profiler, collected objects
 * included): bytes allocated per request by place and by allocating function, B - A.
 * --cache-hit sends every request to a cached route (`bench-cached`, at temperature 0), as ab.ts does.
 * Each build runs its own CLI, with profiler-hooks.mjs preloaded to start and stop the profiler over IPC.
 * One profile's per-function figures move by a few
 * percent between runs of the same build: read only differences that repeat.
 */
import { join } from 'node:path';
import type { CpuProfile } from './cpu-profile.js';
import { fullLoad } from './load.js';
import { THREAD_GROUPS, threadCpuMicros, type ThreadGroup } from './process-stats.js';
import {
  cachedChatBody,
  chatBody,
  chatTarget,
  serveNodeFlags,
  startBenchProcesses,
  type BenchProcesses,
} from './processes.js';
import { warmUp } from './warm-up.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const a = args.get('--a');
if (!a) throw new Error('--a <path to the other build’s dist/gateway/src/cli.js> is required');
const b = args.get('--b') ?? join(import.meta.dirname, '../../dist/gateway/src/cli.js');
const rounds = Number(args.get('--rounds') ?? 4);
const seconds = Number(args.get('--seconds') ?? 3);
const concurrency = Number(args.get('--concurrency') ?? 16);
const top = Number(args.get('--top') ?? 25);
const stream = process.argv.includes('--stream');
const cacheHit = process.argv.includes('--cache-hit');
const heap = process.argv.includes('--heap');
/** `--sort b`: the functions B spends most on, instead of the largest differences. */
const byB = args.get('--sort') === 'b';
const body = cacheHit ? cachedChatBody(stream) : chatBody(stream);
const PROFILER_HOOKS = join(import.meta.dirname, 'profiler-hooks.mjs');

function ask<T>(processes: BenchProcesses, message: string): Promise<T> {
  return new Promise((resolveAnswer) => {
    processes.gateway.once('message', (answer) => resolveAnswer(answer as T));
    processes.gateway.send(message);
  });
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface HeapNode {
  callFrame: CallFrame;
  selfSize: number;
  children: HeapNode[];
}

type ByPlace = { functions: Map<string, number>; places: Map<string, number> };

/** Adds `amount` under the frame's function and under its place (a package, a room of the gateway, node). */
function addTo(totals: ByPlace, { functionName, url, lineNumber }: CallFrame, amount: number): void {
  const short = url.replace(/^.*\/(dist\/gateway\/src|node_modules)\//, '');
  const label = `${functionName || '(anonymous)'}${url ? ` ${short}:${lineNumber + 1}` : ''}`;
  totals.functions.set(label, (totals.functions.get(label) ?? 0) + amount);
  const place = url.startsWith('node:')
    ? 'node internals'
    : (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (/dist\/gateway\/src\/([^/]+)/.exec(url)?.[1]
        ? `gateway ${/dist\/gateway\/src\/([^/]+)/.exec(url)![1]}`
        : `(${functionName || 'native'})`));
  totals.places.set(place, (totals.places.get(place) ?? 0) + amount);
}

/** Self time (µs) by function and by place, idle left out. */
function selfTimes(profile: CpuProfile): ByPlace {
  const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const totals: ByPlace = { functions: new Map(), places: new Map() };
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (count === 0 || node.callFrame.functionName === '(idle)') continue;
    addTo(totals, node.callFrame, count * interval);
  }
  return totals;
}

/** Bytes allocated by function and by place (the allocating frame's own samples). */
function selfBytes(profile: { head: HeapNode }): ByPlace {
  const totals: ByPlace = { functions: new Map(), places: new Map() };
  const visit = (node: HeapNode) => {
    if (node.selfSize > 0) addTo(totals, node.callFrame, node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  return totals;
}

const sides = await Promise.all(
  [a, b].map(async (cli) => {
    const processes = await startBenchProcesses(
      cli,
      [...serveNodeFlags(), '--import', PROFILER_HOOKS],
      {},
      cacheHit ? { upstreamDelayMs: 0 } : undefined,
    );
    return { processes, key: await processes.createKey() };
  }),
);
const targetOf = (side: (typeof sides)[number]) => chatTarget(side.processes.gatewayUrl, side.key, body);

try {
  const warm = await warmUp(
    sides.map(targetOf),
    sides.map((side) => side.processes.gateway.pid!),
    2 * concurrency,
  );
  console.log(`${warm.settled ? 'compiled' : 'still compiling'} after ${warm.seconds} s of warm-up load`);
  const totals = sides.map(() => ({
    requests: 0,
    threads: Object.fromEntries(THREAD_GROUPS.map((group) => [group, 0])) as Record<ThreadGroup, number>,
    functions: new Map<string, number>(),
    places: new Map<string, number>(),
  }));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? [0, 1] : [1, 0];
    await Promise.all(order.map((i) => ask(sides[i].processes, heap ? 'heap-start' : 'profile-start')));
    const before = sides.map((side) => threadCpuMicros(side.processes.gateway.pid!));
    const results = await Promise.all(order.map((i) => fullLoad(targetOf(sides[i]), concurrency, seconds)));
    const after = sides.map((side) => threadCpuMicros(side.processes.gateway.pid!));
    const profiles = await Promise.all(
      sides.map((side) => ask<CpuProfile & { head: HeapNode }>(side.processes, heap ? 'heap-stop' : 'profile-stop')),
    );
    order.forEach((side, k) => {
      const total = totals[side];
      total.requests += results[k].requests;
      for (const group of THREAD_GROUPS) total.threads[group] += after[side][group] - before[side][group];
      const { functions, places } = heap ? selfBytes(profiles[side]) : selfTimes(profiles[side]);
      for (const [name, micros] of functions) total.functions.set(name, (total.functions.get(name) ?? 0) + micros);
      for (const [name, micros] of places) total.places.set(name, (total.places.get(name) ?? 0) + micros);
    });
    console.log(`round ${round}: A ${totals[0].requests} requests so far, B ${totals[1].requests}`);
  }
  const perRequest = (side: number, micros: number) => micros / totals[side].requests;
  const row = (name: string, av: number, bv: number) =>
    `${av.toFixed(2).padStart(8)} ${bv.toFixed(2).padStart(8)} ${(bv - av).toFixed(2).padStart(8)}  ${name}`;
  console.log(`\nA ${a}\nB ${b}\n\nCPU per request by thread (µs, from /proc)\n       A        B      B-A`);
  for (const group of THREAD_GROUPS)
    console.log(row(group, perRequest(0, totals[0].threads[group]), perRequest(1, totals[1].threads[group])));
  const table = (title: string, pick: (total: (typeof totals)[number]) => Map<string, number>, count: number) => {
    const names = new Set([...pick(totals[0]).keys(), ...pick(totals[1]).keys()]);
    const rows = [...names].map((name) => ({
      name,
      av: perRequest(0, pick(totals[0]).get(name) ?? 0),
      bv: perRequest(1, pick(totals[1]).get(name) ?? 0),
    }));
    rows.sort((x, y) => (byB ? y.bv - x.bv : Math.abs(y.bv - y.av) - Math.abs(x.bv - x.av)));
    console.log(`\n${title}\n       A        B      B-A`);
    for (const { name, av, bv } of rows.slice(0, count)) console.log(row(name, av, bv));
    const sum = (side: 'av' | 'bv') => rows.reduce((acc, r) => acc + r[side], 0);
    console.log(row(heap ? '(all, bytes allocated)' : '(all, event loop busy time)', sum('av'), sum('bv')));
  };
  const what = heap ? 'Bytes allocated' : 'Event loop self time (µs)';
  table(`${what} per request by place (V8 profile)`, (total) => total.places, 20);
  table(`${what} per request by function, largest differences`, (total) => total.functions, top);
} finally {
  await Promise.all(sides.map((side) => side.processes.stop()));
}
