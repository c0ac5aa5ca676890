/**
 * How long a start takes, side by side in one run: from spawning the process to the first 200 of
 * /health/liveness (it serves HTTP) and of /health/readiness (the database answers and the engines
 * are warm), for the built gateway as `npm run serve` and the e2e specs start it (a fresh data
 * folder, a config file, the admin key), beside Node itself (`node -e ''`, to its exit) and a
 * Fastify hello world (fastify-hello.mjs, to its first 200). The starts take turns, so a busy
 * machine slows every column alike. Prints the median and the spread of each, and the CPU time the
 * process had used when liveness first answered (on a busy machine it moves less than the wall time).
 *
 *   npx tsx bench/gateway/startup.ts [--starts 10] [--gateway path/to/another/dist/gateway/src/cli.js (a second build, for A/B)]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './load.js';
import { cpuMicros } from './process-stats.js';
import { ADMIN_KEY, serveNodeFlags } from './processes.js';

const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const starts = Number(args.get('--starts') ?? 10);
const root = join(import.meta.dirname, '../..');
const POLL_MS = 5;
const TIMEOUT_MS = 120_000;

interface Start {
  /** Milliseconds from spawn to the first 200 of liveness (for `node -e ''`, to its exit). */
  live: number;
  /** To the first 200 of readiness, where the process has one. */
  ready?: number;
  /** Milliseconds of CPU (user + system) the process had used at its first liveness 200. */
  cpu?: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Milliseconds from `started` until `url` answers 200 (a refused connection is asked again every POLL_MS). */
async function firstOk(url: string, child: ChildProcess, started: number): Promise<number> {
  while (performance.now() - started < TIMEOUT_MS) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`${url} did not answer 200 within ${TIMEOUT_MS} ms`);
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

async function nodeItself(): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return { live: performance.now() - started };
}

async function fastifyHello(): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fastify-hello.mjs'), String(port)], {
    stdio: 'ignore',
  });
  try {
    const live = await firstOk(`http://127.0.0.1:${port}/health/liveness`, child, started);
    return { live, cpu: cpuMicros(child.pid!) / 1000 };
  } finally {
    await stopped(child);
  }
}

/** The gateway's CLI at `cli` started as the e2e specs start it (e2e/support/gateway.ts), with `npm run serve`'s Node flags. */
async function gateway(cli: string): Promise<Start> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-startup-'));
  const config = join(dataDir, 'config.json');
  writeFileSync(config, '{}');
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...serveNodeFlags(), cli], {
    env: {
      ...process.env,
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(port),
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_CONFIG: config,
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_LOG_LEVEL: 'error',
    },
    stdio: 'ignore',
  });
  try {
    const url = `http://127.0.0.1:${port}/health`;
    const live = await firstOk(`${url}/liveness`, child, started);
    const cpu = cpuMicros(child.pid!) / 1000;
    return { live, cpu, ready: await firstOk(`${url}/readiness`, child, started) };
  } finally {
    await stopped(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const columns: [string, () => Promise<Start>][] = [
  ["node -e ''", nodeItself],
  ['Fastify hello world', fastifyHello],
  ['gateway (this build)', () => gateway(join(root, 'dist/gateway/src/cli.js'))],
];
const other = args.get('--gateway');
if (other) columns.push(['gateway (--gateway build)', () => gateway(other)]);

const results = new Map<string, Start[]>(columns.map(([name]) => [name, []]));
for (let round = 0; round < starts; round++)
  for (const [name, start] of columns) results.get(name)!.push(await start());

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${percentile(sorted, 50).toFixed(0).padStart(6)} ms (${sorted[0]!.toFixed(0)}-${sorted.at(-1)!.toFixed(0)})`;
};
console.log(`\nStart-up: spawn to the first 200, median (min-max) of ${starts} starts taking turns`);
if (other) console.log(`--gateway build: ${other}`);
console.log(`${'process'.padEnd(30)}${'liveness'.padEnd(24)}${'readiness'.padEnd(24)}CPU to liveness`);
for (const [name, values] of results) {
  const column = (field: 'ready' | 'cpu') => {
    const present = values.flatMap((value) => (value[field] === undefined ? [] : [value[field]]));
    return present.length ? ms(present) : '-';
  };
  console.log(
    `${name.padEnd(30)}${ms(values.map((value) => value.live)).padEnd(24)}${column('ready').padEnd(24)}${column('cpu')}`,
  );
}
