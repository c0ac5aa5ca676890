import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Libsql from 'libsql';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { SettingsStore } from '../../src/core/settings/settings-store.js';
import { AgentsRepository } from '../../src/store/agents-repository.js';
import { openDatabase } from '../../src/store/database.js';
import { KeysRepository } from '../../src/store/keys-repository.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { SettingsRepository } from '../../src/store/settings-repository.js';
import { StoreError } from '../../src/store/store-error.js';
import { UsageRepository } from '../../src/store/usage-repository.js';
import { createTestDatabase } from '../support/test-databases.js';
import { useTempDir } from '../support/use-resources.js';
import { SecretBox } from '../../src/core/settings/secret-box.js';

const CLI = join(import.meta.dirname, '../../../dist/gateway/src/cli.js');

/** A data folder as the gateway made it before Kysely: the same SQL, applied with libsql directly, versions 1..9. */
function oldSqliteFolder(): string {
  const dir = useTempDir('switchyard-old-');
  const db = new Libsql(join(dir, 'switchyard.db'));
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((candidate) => candidate.version <= 9)) {
    db.exec(migration.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      migration.version,
      migration.name,
      1_700_000_000_000 + migration.version,
    );
  }
  db.prepare(
    "INSERT INTO api_keys (id, name, role, prefix, hash, created_at, spend_limit) VALUES ('key_old', 'old key', 'owner', 'sk-sy-old…', 'hash-old', 1700000000123, 1.5)",
  ).run();
  db.prepare(
    "INSERT INTO usage (time, request_id, key_id, method, route, model, status, latency_ms, prompt_tokens, completion_tokens, cost) VALUES (1700000000456, 'req_old', 'key_old', 'POST', '/v1/chat/completions', 'm', 200, 3.5, 10, 20, 0.125)",
  ).run();
  db.prepare(
    'INSERT INTO agents (id, name, model, tools, created_at, version, history) VALUES (\'ag_old\', \'helper\', \'m\', \'[]\', 1700000000, 1, \'[{"name":"first","model":"m","instructions":null,"description":null,"tools":[],"updated_at":1}]\')',
  ).run();
  db.close();
  return dir;
}

function runCli(env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI], {
    env: { ...process.env, GATEWAY_LOG_LEVEL: 'silent', GATEWAY_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { exited, stderr: () => stderr };
}

describe('migrations on SQLite', () => {
  it('opens a data folder made before Kysely unchanged: its migration rows and its data stay', async () => {
    const dir = oldSqliteFolder();
    const db = await openDatabase({ dataDir: dir });
    onTestFinished(() => db.close());
    const applied = await db.query.selectFrom('schema_migrations').selectAll().orderBy('version').execute();
    expect(applied.filter((row) => row.version <= 9).map((row) => [row.version, row.applied_at])).toEqual(
      MIGRATIONS.filter((m) => m.version <= 9).map((m) => [m.version, 1_700_000_000_000 + m.version]),
    );
    expect(await new KeysRepository(db).findById('key_old')).toMatchObject({
      name: 'old key',
      role: 'owner',
      created_at: 1_700_000_000_123,
      spend_limit: 1.5,
      revoked_at: null,
    });
    expect(await new UsageRepository(db).totals('key_old')).toEqual({
      requests: 1,
      prompt_tokens: 10,
      completion_tokens: 20,
      cost: 0.125,
    });
    expect(await new AgentsRepository(db).get('ag_old')).toMatchObject({
      name: 'helper',
      version: 1,
      history: [{ name: 'first' }],
    });
  });

  it('refuses a database whose schema is newer than the code, with one line naming both versions; the CLI exits 1', async () => {
    const dir = oldSqliteFolder();
    const raw = new Libsql(join(dir, 'switchyard.db'));
    raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from the future', 0)").run();
    raw.close();
    const opened = openDatabase({ dataDir: dir });
    await expect(opened).rejects.toThrow(StoreError);
    await expect(opened).rejects.toThrow(/schema is at version 99, newer than this gateway knows \(\d+\)/);

    const run = runCli({ GATEWAY_DATA_DIR: dir });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(
      /^Database error: The database's schema is at version 99, newer than this gateway knows/,
    );
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
  });
});

describe('migrations on PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('two gateways migrating the same fresh database at once both start, and every migration is applied once', async () => {
    const dataDir = useTempDir();
    const opened = await Promise.all([
      openDatabase({ dataDir, url: database.url }),
      openDatabase({ dataDir, url: database.url }),
      openDatabase({ dataDir, url: database.url }),
    ]);
    onTestFinished(() => Promise.all(opened.map((db) => db.close())).then(() => undefined));
    const applied = await opened[0].query
      .selectFrom('schema_migrations')
      .select('version')
      .orderBy('version')
      .execute();
    expect(applied.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
    // Money is double precision and times are BIGINT: a millisecond time and a fraction of a cent come back exactly.
    await new UsageRepository(opened[1]).append([
      {
        time: 1_764_000_000_123,
        request_id: 'r',
        key_id: 'k',
        method: 'POST',
        route: '/',
        model: 'm',
        status: 200,
        latency_ms: 0.5,
        prompt_tokens: 1,
        completion_tokens: 1,
        cost: 0.000123,
      },
    ]);
    expect(await new UsageRepository(opened[2]).totals('k')).toEqual({
      requests: 1,
      prompt_tokens: 1,
      completion_tokens: 1,
      cost: 0.000123,
    });
  });

  it('a server that does not answer stops the start with one line and exit code 1, the password hidden', async () => {
    const opened = openDatabase({ dataDir: useTempDir(), url: 'postgres://someone:secret@127.0.0.1:1/nothing' });
    await expect(opened).rejects.toThrow(
      /^GATEWAY_DATABASE_URL: PostgreSQL at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nothing did not answer \(ECONNREFUSED/,
    );

    const run = runCli({
      GATEWAY_DATA_DIR: useTempDir(),
      GATEWAY_DATABASE_URL: 'postgres://someone:secret@127.0.0.1:1/nothing',
      GATEWAY_INSTANCES: '1',
    });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(/^Database error: GATEWAY_DATABASE_URL: PostgreSQL at .* did not answer/);
    expect(run.stderr()).not.toContain('secret');
    expect(run.stderr().trim().split('\n')).toHaveLength(1);
  });
});

describe.each(['sqlite', 'postgres'] as const)(
  'migrations 10 and 13 (usage indexes, daily roll-up) on %s',
  (dialect) => {
    it('a ledger written at version 9 reads the same after the upgrade: the roll-up is filled from it, and later entries add to it', async () => {
      const dataDir = useTempDir();
      const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
      onTestFinished(() => database?.drop());
      const location = { dataDir, url: database?.url };
      const old = await openDatabase({ ...location, schemaVersion: 9 });
      const day = Date.now() - 3_600_000;
      await old.query
        .insertInto('usage')
        .values([
          {
            time: day,
            request_id: 'a',
            key_id: 'k1',
            method: 'POST',
            route: '/',
            model: 'm1',
            status: 200,
            latency_ms: 1,
            prompt_tokens: 10,
            completion_tokens: 5,
            cost: 0.5,
          },
          {
            time: day,
            request_id: 'b',
            key_id: 'k2',
            method: 'POST',
            route: '/',
            model: 'm2',
            status: 200,
            latency_ms: 1,
            prompt_tokens: 1,
            completion_tokens: 1,
            cost: 0.25,
          },
          {
            time: day,
            request_id: 'c',
            key_id: null,
            method: 'GET',
            route: '/',
            model: null,
            status: 401,
            latency_ms: 1,
            prompt_tokens: 0,
            completion_tokens: 0,
            cost: 0,
          },
        ])
        .execute();
      await old.close();

      const db = await openDatabase(location);
      onTestFinished(() => db.close());
      const applied = await db.query.selectFrom('schema_migrations').select('version').orderBy('version').execute();
      expect(applied.map((row) => row.version)).toEqual(MIGRATIONS.map((migration) => migration.version));
      const usage = new UsageRepository(db);
      expect(await usage.totals()).toEqual({ requests: 3, prompt_tokens: 11, completion_tokens: 6, cost: 0.75 });
      expect(await usage.byModel('k1')).toEqual([
        { key: 'm1', requests: 1, prompt_tokens: 10, completion_tokens: 5, cost: 0.5 },
      ]);
      expect(await usage.byDay('k2')).toEqual([
        {
          key: new Date(day).toISOString().slice(0, 10),
          requests: 1,
          prompt_tokens: 1,
          completion_tokens: 1,
          cost: 0.25,
        },
      ]);
      expect(Object.fromEntries(await usage.spentPerKey())).toEqual({ k1: 0.5, k2: 0.25 });
      await usage.append([
        {
          time: day,
          request_id: 'd',
          key_id: 'k1',
          method: 'POST',
          route: '/',
          model: 'm1',
          status: 200,
          latency_ms: 1,
          prompt_tokens: 2,
          completion_tokens: 2,
          cost: 0.125,
        },
      ]);
      expect(await usage.byModel()).toEqual([
        { key: 'm1', requests: 2, prompt_tokens: 12, completion_tokens: 7, cost: 0.625 },
        { key: 'm2', requests: 1, prompt_tokens: 1, completion_tokens: 1, cost: 0.25 },
      ]);
      expect(await usage.spentTotal()).toBe(0.875);
    });
  },
);

describe.each(['sqlite', 'postgres'] as const)('migration 11 (gateway_settings) on %s', (dialect) => {
  it('a database whose providers and server settings were #-rows of route_overrides keeps them, and its routes', async () => {
    const dataDir = useTempDir();
    const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
    onTestFinished(() => database?.drop());
    const location = { dataDir, url: database?.url };
    const old = await openDatabase({ ...location, schemaVersion: 10 });
    await old.query
      .insertInto('route_overrides')
      .values([
        {
          id: '#provider:mine',
          route: JSON.stringify({ type: 'openai', base_url: 'http://127.0.0.1:9/v1', id: '#provider:mine' }),
          deleted: 0,
          updated_at: 1,
        },
        { id: '#provider:gone', route: null, deleted: 1, updated_at: 2 },
        {
          id: '#server',
          route: JSON.stringify({ cors_origins: ['http://app'], id: '#server' }),
          deleted: 0,
          updated_at: 3,
        },
        {
          id: 'my-route',
          route: JSON.stringify({ id: 'my-route', provider: 'mine', capabilities: ['chat'] }),
          deleted: 0,
          updated_at: 4,
        },
      ])
      .execute();
    await old.close();

    const db = await openDatabase(location);
    onTestFinished(() => db.close());
    const stored = await new SettingsStore(new SettingsRepository(db), {
      box: new SecretBox(randomBytes(32)),
      source: 'a test key',
    }).read();
    expect(Object.fromEntries(stored.providers)).toEqual({
      mine: { id: 'mine', type: 'openai', base_url: 'http://127.0.0.1:9/v1' },
      gone: null,
    });
    expect(stored.server).toEqual({ cors_origins: ['http://app'] });
    expect(stored.routes).toEqual([
      { id: 'my-route', deleted: false, route: { id: 'my-route', provider: 'mine', capabilities: ['chat'] } },
    ]);
    expect((await db.query.selectFrom('route_overrides').select('id').execute()).map((row) => row.id)).toEqual([
      'my-route',
    ]);
  });
});
