/**
 * Team-mode sizing: one built gateway on PostgreSQL (a fresh database) and Redis, the fast fake
 * upstream behind it. Measures requests per second per instance (closed loop, plain chat), then the
 * database and Redis work per 1,000 requests: pg_stat_database (transactions committed, rows
 * inserted, updated and read) and Redis INFO commandstats deltas around exactly 1,000 requests, after
 * the background writes (request log, ledger) have settled. Redis is a private redis-server on a
 * free port when the binary is there (so other users of a shared Redis do not count), else `redisUrl`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresConnection } from '../../gateway/src/store/database.js';
import { fixedCount, fullLoad } from './load.js';
import { cpuMicros } from './process-stats.js';
import { chatBody, chatTarget, startBenchProcesses } from './processes.js';

export interface SizingOptions {
  /** A PostgreSQL URL whose server may create a database (the sizing database is made and dropped). */
  databaseUrl: string;
  /** Used only when no redis-server binary can be started. */
  redisUrl: string;
  seconds: number;
  concurrency: number;
  requests: number;
}

export interface Sizing {
  rps: number;
  cpuPerRequestMicros: number;
  errors: number;
  counted: number;
  redis: string;
  /** Per `requests` requests. */
  database: { transactions: number; inserted: number; updated: number; returned: number };
  redisCommands: { total: number; byCommand: Record<string, number> };
  /** The same counters over the same time with no requests (spend refresh, prune turns, pings). */
  idle: { transactions: number; redisCommands: number; seconds: number };
}

/**
 * Background writes (request log every 250 ms, ledger retries) settle well within this, and PostgreSQL 15
 * backends report their statistics to pg_stat_database at most 10 s after they go idle.
 */
const SETTLE_MS = 11_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  return port;
}

async function privateRedis(): Promise<{ url: string; child: ChildProcess } | undefined> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const failed = once(child, 'error').then(() => undefined);
  const url = `redis://127.0.0.1:${port}`;
  const ready = (async () => {
    for (let i = 0; i < 50; i++) {
      const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        await redis.ping();
        return { url, child };
      } catch {
        await sleep(100);
      } finally {
        redis.disconnect();
      }
    }
    child.kill();
    return undefined;
  })();
  return Promise.race([ready, failed]);
}

async function databaseCounters(admin: pg.Client, name: string) {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const row = (
    await admin.query(
      'SELECT xact_commit, tup_inserted, tup_updated, tup_returned FROM pg_stat_database WHERE datname = $1',
      [name],
    )
  ).rows[0] as Record<string, string>;
  return {
    transactions: Number(row.xact_commit),
    inserted: Number(row.tup_inserted),
    updated: Number(row.tup_updated),
    returned: Number(row.tup_returned),
  };
}

async function redisCounters(redis: Redis): Promise<Record<string, number>> {
  const text = await redis.info('commandstats');
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) counts[match[1]] = Number(match[2]);
  return counts;
}

function redisDelta(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [command, calls] of Object.entries(after)) {
    // INFO itself (this measurement) is not the gateway's.
    const used = calls - (before[command] ?? 0) - (command === 'info' ? 1 : 0);
    if (used > 0) delta[command] = used;
  }
  return delta;
}

export async function measureSizing(options: SizingOptions): Promise<Sizing> {
  const name = `switchyard_sizing_${process.pid}`;
  const admin = new pg.Client(postgresConnection(options.databaseUrl));
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const own = await privateRedis();
  const redisUrl = own?.url ?? options.redisUrl;
  const prefix = `switchyard-sizing-${process.pid}:`;
  const url = new URL(options.databaseUrl);
  url.pathname = `/${name}`;
  const redis = new Redis(redisUrl);
  try {
    const processes = await startBenchProcesses(undefined, [], {
      GATEWAY_DATABASE_URL: url.toString(),
      GATEWAY_REDIS_URL: redisUrl,
      GATEWAY_REDIS_PREFIX: prefix,
      GATEWAY_INSTANCE_ID: 'sizing-1',
    });
    try {
      const key = await processes.createKey();
      const target = chatTarget(processes.gatewayUrl, key, chatBody(false));
      // Warm-up, then the closed loop.
      await fullLoad(target, options.concurrency, Math.min(2, options.seconds));
      const cpuBefore = cpuMicros(processes.gateway.pid!);
      const load = await fullLoad(target, options.concurrency, options.seconds);
      const cpu = cpuMicros(processes.gateway.pid!) - cpuBefore;

      await sleep(SETTLE_MS);
      const idleSeconds = 10;
      const idleDbBefore = await databaseCounters(admin, name);
      const idleRedisBefore = await redisCounters(redis);
      await sleep(idleSeconds * 1000);
      const idleDb = await databaseCounters(admin, name);
      const idleRedis = await redisCounters(redis);

      const dbBefore = idleDb;
      const redisBefore = idleRedis;
      const counted = await fixedCount(target, options.concurrency, options.requests);
      await sleep(SETTLE_MS);
      const dbAfter = await databaseCounters(admin, name);
      const redisAfter = await redisCounters(redis);
      const byCommand = redisDelta(redisBefore, redisAfter);
      const idleCommands = Object.values(redisDelta(idleRedisBefore, idleRedis)).reduce((sum, calls) => sum + calls, 0);
      return {
        rps: load.requests / load.seconds,
        cpuPerRequestMicros: load.requests ? cpu / load.requests : NaN,
        errors: load.errors + counted.errors,
        counted: counted.requests,
        redis: own ? 'a private redis-server' : redisUrl,
        database: {
          transactions: dbAfter.transactions - dbBefore.transactions,
          inserted: dbAfter.inserted - dbBefore.inserted,
          updated: dbAfter.updated - dbBefore.updated,
          returned: dbAfter.returned - dbBefore.returned,
        },
        redisCommands: { total: Object.values(byCommand).reduce((sum, calls) => sum + calls, 0), byCommand },
        idle: {
          transactions: idleDb.transactions - idleDbBefore.transactions,
          redisCommands: idleCommands,
          seconds: idleSeconds,
        },
      };
    } finally {
      await processes.stop();
    }
  } finally {
    if (!own) for (const found of await redis.keys(`${prefix}*`)) await redis.del(found);
    redis.disconnect();
    own?.child.kill();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}
