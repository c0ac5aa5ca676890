import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openDatabase, postgresConnection, type Database } from '../../src/store/database.js';
import { useTempDir } from './use-resources.js';

/** The PostgreSQL the tests create their databases on (trust auth on this machine). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/postgres';

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(postgresConnection(TEST_DATABASE_URL));
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database; `drop` removes it (closing what is still connected). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `switchyard_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export interface TestDatabaseKind {
  dialect: 'sqlite' | 'postgres';
  /** A fresh, migrated database: a new SQLite folder, or a new PostgreSQL database (schema dropped between tests). */
  open(): Promise<Database>;
  /** The options that open the same database again (a second connection, or a restart). */
  location(): { dataDir: string; url?: string };
}

/**
 * The two databases every repository test runs on, for `describe.each`. Each test file gets its
 * own PostgreSQL database, created before its tests and dropped after; each test a clean schema.
 */
export function bothDatabases(): TestDatabaseKind[] {
  let created: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    created = await createTestDatabase();
  });
  afterAll(async () => {
    await created?.drop();
  });
  let sqliteDir = '';
  let pgDir = '';
  return [
    {
      dialect: 'sqlite',
      open: () => {
        sqliteDir = useTempDir('switchyard-store-');
        return openDatabase({ dataDir: sqliteDir });
      },
      location: () => ({ dataDir: sqliteDir }),
    },
    {
      dialect: 'postgres',
      open: async () => {
        pgDir = useTempDir('switchyard-store-');
        const url = created!.url;
        const cleaner = new pg.Client(postgresConnection(url));
        await cleaner.connect();
        await cleaner.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
        await cleaner.end();
        return openDatabase({ dataDir: pgDir, url });
      },
      location: () => ({ dataDir: pgDir, url: created!.url }),
    },
  ];
}
