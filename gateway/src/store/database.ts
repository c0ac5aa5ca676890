import { mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql, SqliteDialect, type CompiledQuery, type SqliteDatabase } from 'kysely';
import Libsql from 'libsql';
import type { ClientConfig } from 'pg';
import { applyMigrations } from './migrations.js';
import { ensurePrivateFile, PRIVATE_FOLDER_MODE } from './private-folder.js';
import { PREPARED_CAPACITY, SqliteWriter } from './sqlite-writer.js';
import { StoreError } from './store-error.js';
import type { Database } from './database-interface.js';
import type { Tables } from './tables.js';

export type { Database, Dialect } from './database-interface.js';

export interface DatabaseOptions {
  /** GATEWAY_DATA_DIR: the SQLite file lives here when no URL is given. */
  dataDir: string;
  /** GATEWAY_DATABASE_URL: a postgres:// URL selects PostgreSQL. */
  url?: string;
  /** Migrate only up to this version (benchmarks and migration tests); the latest by default. */
  schemaVersion?: number;
}

/** Opens the database (SQLite in the data folder, or PostgreSQL at `url`) and applies pending migrations under a lock. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    // Migrations get a connection without the query timeout: building an index on a large ledger takes longer.
    await migrated(await openPostgres(options.url, undefined), options.schemaVersion).then((db) => db.close());
    return openPostgres(options.url, QUERY_TIMEOUT_MS);
  }
  return migrated(openSqlite(options.dataDir), options.schemaVersion);
}

async function migrated(db: Database, schemaVersion: number | undefined): Promise<Database> {
  try {
    await applyMigrations(db, schemaVersion);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/** Pages in the log before the event loop's connection checkpoints it itself (sqlite-writer.ts does it every second). */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

function openSqlite(dataDir: string): Database {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const path = join(dataDir, 'switchyard.db');
  ensurePrivateFile(path);
  const file = new Libsql(path);
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // The writer thread checkpoints every second; this connection's own checkpoint, raised from SQLite's
  // 1,000 pages, is only the backstop that bounds the log (about 40 MB) under commits without a pause.
  file.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  // libsql is better-sqlite3 compatible: prepare, and statements with `reader`, all, run and iterate.
  const query = new Kysely<Tables>({ dialect: new SqliteDialect({ database: file as unknown as SqliteDatabase }) });
  const prepared = preparedStatements(file);
  const writer = new SqliteWriter(path);
  return {
    query,
    dialect: 'sqlite',
    atomically: async (statements) => {
      writer.start();
      file.transaction(() => {
        for (const statement of statements) prepared(statement.sql).run(statement.parameters as unknown[]);
      })();
    },
    atomicallyInBackground: (statements) => writer.run(statements),
    ping: async () => {
      await sql`SELECT 1`.execute(query);
    },
    close: async () => {
      await writer.close();
      // Fold the WAL into the database file, so a stopped gateway leaves one file behind.
      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(query).catch(() => undefined);
      await query.destroy();
    },
  };
}

/**
 * Prepares each SQL text once: the ledger's group commit runs the same statements on every commit,
 * and preparing them again each time was a large share of its cost. The oldest goes when full.
 */
function preparedStatements<S>(file: { prepare(sqlText: string): S }): (sqlText: string) => S {
  const cache = new Map<string, S>();
  return (sqlText) => {
    let statement = cache.get(sqlText);
    if (!statement) {
      if (cache.size >= PREPARED_CAPACITY) cache.delete(cache.keys().next().value!);
      cache.set(sqlText, (statement = file.prepare(sqlText)));
    }
    return statement;
  };
}

/**
 * int8 (counts, BIGINT columns) and numeric (sums of BIGINT) come back as numbers: every value the
 * store keeps fits in a double. The driver is loaded only for PostgreSQL (team mode): a gateway on
 * SQLite never holds it in memory.
 */
async function loadPg() {
  const { default: pg } = await import('pg');
  const numericTypes = new Set<number>([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);
  const typeParsers = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      numericTypes.has(oid) && format !== 'binary'
        ? (value: string) => Number(value)
        : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
  };
  return { pg, typeParsers };
}

/** A database URL with its password hidden, for messages. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

/** Connection settings for `url`; like libpq, a URL without a user name connects as the system user. */
export function postgresConnection(url: string): ClientConfig {
  const parsed = new URL(url);
  if (!parsed.username) parsed.username = process.env.PGUSER ?? userInfo().username;
  return { connectionString: parsed.toString() };
}

const CONNECT_TIMEOUT_MS = 3000;
const QUERY_TIMEOUT_MS = 15_000;

async function openPostgres(url: string, queryTimeoutMs: number | undefined): Promise<Database> {
  const { pg, typeParsers } = await loadPg();
  // Short timeouts: while the server does not answer, a request fails fast with 503 instead of hanging.
  const pool = new pg.Pool({
    ...postgresConnection(url),
    types: typeParsers,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: queryTimeoutMs,
    keepAlive: true,
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  // Likewise a client checked out between two queries (a transaction): its next query reports it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const query = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  const ping = async () => {
    await sql`SELECT 1`.execute(query);
  };
  try {
    await ping();
  } catch (error) {
    await query.destroy();
    const cause = error as NodeJS.ErrnoException;
    throw new StoreError(
      `GATEWAY_DATABASE_URL: PostgreSQL at ${shownUrl(url)} did not answer (${cause.code ? `${cause.code}: ` : ''}${cause.message.split('\n')[0]})`,
    );
  }
  const atomically = (statements: readonly CompiledQuery[]) =>
    query.transaction().execute(async (trx) => {
      for (const statement of statements) await trx.executeQuery(statement);
    });
  return {
    query,
    dialect: 'postgres',
    atomically,
    atomicallyInBackground: atomically,
    ping,
    close: () => query.destroy(),
  };
}
