/**
 * The account pages and `/account/usage` with a large ledger: fills a fresh SQLite file and a fresh
 * PostgreSQL database with `--rows` usage rows (1,000,000 by default; 90 days, 50 keys, 12 models) and
 * `--log-rows` request-log rows (with bodies), then times the account pages' queries (median of 5) in
 * three stages: over the ledger's rows at schema 9, over the rows with migration 10's covering indexes,
 * and on migration 13's daily roll-up (the store's queries now). Prints a Markdown table.
 * `npm run bench -- --store [--rows N] [--log-rows N]`; PostgreSQL from TEST_DATABASE_URL
 * (default postgres://127.0.0.1:5432/postgres), in a database created and dropped here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import { openDatabase, postgresConnection, type Database } from '../../gateway/src/store/database.js';
import { applyMigrations } from '../../gateway/src/store/migrations.js';
import { LedgerScan } from './ledger-scan.js';
import { RequestLogRepository, type RequestLogEntry } from '../../gateway/src/store/request-log-repository.js';
import { UsageRepository } from '../../gateway/src/store/usage-repository.js';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, 'log-rows': { type: 'string', default: '100000' } },
});
const ROWS = Number(values.rows);
const LOG_ROWS = Number(values['log-rows']);
const BEFORE = 9;
const INDEXES = 12;
const DAY = 86_400_000;
const NOW = Date.now();
const KEYS = Array.from({ length: 50 }, (_, i) => `key_${i}`);
const MODELS = Array.from({ length: 12 }, (_, i) => `model-${i}`);
const COLUMNS = [
  'time',
  'request_id',
  'key_id',
  'method',
  'route',
  'model',
  'status',
  'latency_ms',
  'prompt_tokens',
  'completion_tokens',
  'cost',
] as const;
const PG_TYPES = ['bigint', 'text', 'text', 'text', 'text', 'text', 'bigint', 'float8', 'bigint', 'bigint', 'float8'];

/** A deterministic pseudo-random sequence, so both databases hold the same rows. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

function usageRow(i: number, next: () => number): unknown[] {
  // Skewed as real traffic: a few keys and models carry most requests.
  const key = KEYS[Math.floor(next() ** 2 * KEYS.length)];
  const model = next() < 0.02 ? null : MODELS[Math.floor(next() ** 2 * MODELS.length)];
  const prompt = Math.floor(next() * 2000);
  const completion = Math.floor(next() * 800);
  return [
    NOW - Math.floor(next() * 90 * DAY),
    `req_${i}`,
    next() < 0.03 ? null : key,
    'POST',
    '/v1/chat/completions',
    model,
    next() < 0.97 ? 200 : 429,
    next() * 900,
    prompt,
    completion,
    (prompt + 3 * completion) * 1e-6,
  ];
}

function logEntry(i: number, next: () => number): RequestLogEntry {
  const body = 'x'.repeat(300 + Math.floor(next() * 1200));
  return {
    id: `req_log_${i}`,
    time: NOW - Math.floor(next() * 7 * DAY),
    method: 'POST',
    path: '/v1/chat/completions',
    status: 200,
    latency_ms: 120,
    key_prefix: 'sk-sy-abc…',
    model: 'model-1',
    prompt_tokens: 10,
    completion_tokens: 20,
    cost: 0.0001,
    client: null,
    request_headers: { 'content-type': 'application/json' },
    request_body: body,
    response_body: body,
  };
}

/** Multi-row INSERTs in one transaction per batch: SQLite takes 500 rows a statement, PostgreSQL 20,000 as arrays. */
async function fillUsage(db: Database): Promise<void> {
  const next = random(42);
  const batch = db.dialect === 'postgres' ? 20_000 : 500;
  const sqliteText = (rows: number) =>
    `INSERT INTO usage (${COLUMNS.join(', ')}) VALUES ${Array.from({ length: rows }, () => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ')}`;
  const pgText = `INSERT INTO usage (${COLUMNS.join(', ')}) SELECT * FROM unnest(${PG_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})`;
  for (let start = 0; start < ROWS; start += batch * 20) {
    const statements: CompiledQuery[] = [];
    for (let from = start; from < Math.min(ROWS, start + batch * 20); from += batch) {
      const rows = Array.from({ length: Math.min(batch, ROWS - from) }, (_, i) => usageRow(from + i, next));
      statements.push(
        db.dialect === 'postgres'
          ? CompiledQuery.raw(
              pgText,
              COLUMNS.map((_, column) => rows.map((row) => row[column])),
            )
          : CompiledQuery.raw(sqliteText(rows.length), rows.flat()),
      );
    }
    await db.atomically(statements);
  }
}

async function fillRequestLog(db: Database): Promise<void> {
  const next = random(7);
  const log = new RequestLogRepository(db);
  for (let start = 0; start < LOG_ROWS; start += 1000) {
    await log.insertMany(Array.from({ length: Math.min(1000, LOG_ROWS - start) }, (_, i) => logEntry(start + i, next)));
  }
}

async function median(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2];
}

/** The queries behind `/account/usage`, the account page's balance and spend, and the request log. */
function queries(db: Database, usage: LedgerScan | UsageRepository): Record<string, () => Promise<unknown>> {
  const log = new RequestLogRepository(db);
  return {
    'totals (all keys)': () => usage.totals(),
    'totals (one key)': () => usage.totals('key_3'),
    'by model (all keys)': () => usage.byModel(),
    'by model (one key)': () => usage.byModel('key_3'),
    'by day, 30 days (all keys)': () => usage.byDay(),
    'by day, 30 days (one key)': () => usage.byDay('key_3'),
    'spent total (account)': () => usage.spentTotal(),
    'spent by one key': () => usage.spentByKey('key_3'),
    'spent per key (all keys)': () => usage.spentPerKey(),
    'request log, newest 1,000': () => log.recent(1000),
  };
}

async function measure(db: Database, usage: LedgerScan | UsageRepository): Promise<Record<string, number>> {
  if (db.dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db.query);
  else await sql`ANALYZE`.execute(db.query);
  const times: Record<string, number> = {};
  for (const [name, work] of Object.entries(queries(db, usage))) times[name] = await median(work);
  return times;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

interface Stages {
  fillSeconds: number;
  indexSeconds: number;
  rollupSeconds: number;
  scan: Record<string, number>;
  indexed: Record<string, number>;
  rollup: Record<string, number>;
}

async function run(db: Database): Promise<Stages> {
  const fillSeconds = await timed(async () => {
    await fillUsage(db);
    await fillRequestLog(db);
  });
  const scan = await measure(db, new LedgerScan(db));
  const indexSeconds = await timed(() => applyMigrations(db, INDEXES));
  const indexed = await measure(db, new LedgerScan(db));
  const rollupSeconds = await timed(() => applyMigrations(db));
  return {
    fillSeconds,
    indexSeconds,
    rollupSeconds,
    scan,
    indexed,
    rollup: await measure(db, new UsageRepository(db)),
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client(postgresConnection(url));
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function onSqlite() {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-store-bench-'));
  const db = await openDatabase({ dataDir: dir, schemaVersion: BEFORE });
  try {
    return await run(db);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres() {
  const server = process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/postgres';
  const name = `switchyard_bench_${process.pid}`;
  await admin(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const db = await openDatabase({ dataDir: tmpdir(), url: url.toString(), schemaVersion: BEFORE });
  try {
    return await run(db);
  } finally {
    await db.close();
    await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
const sqlite = await onSqlite();
const postgres = await onPostgres();
console.log(
  `\nStore at scale: ${ROWS.toLocaleString('en')} usage rows, ${LOG_ROWS.toLocaleString('en')} request-log rows; ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}`,
);
const seconds = (value: number) => `${value.toFixed(1)} s`;
console.log(
  `Fill: SQLite ${seconds(sqlite.fillSeconds)}, PostgreSQL ${seconds(postgres.fillSeconds)}; migrations 10-12 (indexes): ${seconds(sqlite.indexSeconds)}, ${seconds(postgres.indexSeconds)}; migration 13 (roll-up): ${seconds(sqlite.rollupSeconds)}, ${seconds(postgres.rollupSeconds)}\n`,
);
console.log(
  '| query (median of 5, ms) | SQLite rows | SQLite indexes | SQLite roll-up | PostgreSQL rows | PostgreSQL indexes | PostgreSQL roll-up |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const name of Object.keys(sqlite.scan)) {
  console.log(
    `| ${name} | ${[sqlite.scan, sqlite.indexed, sqlite.rollup, postgres.scan, postgres.indexed, postgres.rollup].map((stage) => ms(stage[name])).join(' | ')} |`,
  );
}
