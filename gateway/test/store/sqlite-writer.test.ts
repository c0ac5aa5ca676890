import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery } from 'kysely';
import Libsql from 'libsql';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { RequestLogRepository, type RequestLogEntry } from '../../src/store/request-log-repository.js';
import { closeAfterTest, useTempDir } from '../support/use-resources.js';

// SQLite's background transactions (the request log's batches) run on a writer thread with its own connection (store/sqlite-writer.ts).
describe('SQLite writes on the writer thread', () => {
  const insert = (id: string, name: string) =>
    CompiledQuery.raw('INSERT INTO api_keys (id, name, role, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      name,
      'member',
      'sk-sy-…',
      `hash-${id}`,
      1,
    ]);

  it('a committed transaction is read at once on the gateway connection, and one failing statement leaves none of its transaction', async () => {
    const db = await openDatabase({ dataDir: useTempDir() });
    try {
      await db.atomicallyInBackground([insert('k1', 'first'), insert('k2', 'second')]);
      expect((await db.query.selectFrom('api_keys').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(
        ['k1', 'k2'],
      );

      // k3 is fine, k1 again breaks the primary key: the whole transaction is refused, with SQLite's own code.
      await expect(db.atomicallyInBackground([insert('k3', 'third'), insert('k1', 'again')])).rejects.toMatchObject({
        code: expect.stringMatching(/^SQLITE_CONSTRAINT/),
      });
      expect((await db.query.selectFrom('api_keys').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(
        ['k1', 'k2'],
      );

      // The writer goes on after a refused transaction.
      await db.atomicallyInBackground([insert('k4', 'fourth')]);
      expect(await db.query.selectFrom('api_keys').select('id').where('id', '=', 'k4').executeTakeFirst()).toEqual({
        id: 'k4',
      });
    } finally {
      await db.close();
    }
  });

  it('batches sent before close are all committed, and the file holds them after a reopen; a write after close is refused', async () => {
    const dataDir = useTempDir();
    const db = await openDatabase({ dataDir });
    const log = new RequestLogRepository(db);
    const entry = (i: number): RequestLogEntry => ({
      id: `req_${i}`,
      time: 1_764_000_000_000 + i,
      method: 'POST',
      path: '/v1/chat/completions',
      status: 200,
      latency_ms: 1,
      key_prefix: null,
      model: 'm',
      prompt_tokens: 1,
      completion_tokens: 1,
      cost: 0,
      client: null,
      request_body: 'x'.repeat(4096),
    });
    const writes = Array.from({ length: 50 }, (_, i) => log.insertMany([entry(2 * i), entry(2 * i + 1)]));
    await db.close();
    await Promise.all(writes);
    await expect(db.atomicallyInBackground([insert('late', 'late')])).rejects.toThrow(/closed/);

    const reopened = await openDatabase({ dataDir });
    try {
      const stored = await new RequestLogRepository(reopened).recent(1000);
      expect(stored).toHaveLength(100);
      expect(stored[0]).toMatchObject({ id: 'req_99', request_body: 'x'.repeat(4096) });
    } finally {
      await reopened.close();
    }
  });

  it('takes a request-log batch of tens of megabytes in one transaction', async () => {
    const db = await openDatabase({ dataDir: useTempDir() });
    try {
      const log = new RequestLogRepository(db);
      const body = 'y'.repeat(16 * 1024);
      // 6,000 entries with two 16 KiB bodies: about 200 MB of text through the thread in one batch.
      const entries = Array.from({ length: 6000 }, (_, i): RequestLogEntry => ({
        id: `big_${i}`,
        time: 1_764_000_000_000 + i,
        method: 'POST',
        path: '/v1/chat/completions',
        status: 200,
        latency_ms: 1,
        key_prefix: null,
        model: 'm',
        prompt_tokens: 1,
        completion_tokens: 1,
        cost: 0,
        client: null,
        request_body: body,
        response_body: body,
      }));
      await log.insertMany(entries);
      expect(await log.recent(1)).toMatchObject([{ id: 'big_5999', response_body: body }]);
    } finally {
      await db.close();
    }
  });

  it("folds the event loop's commits into the database file within about a second, without waiting for the log to fill", async () => {
    const dataDir = useTempDir();
    const db = closeAfterTest(await openDatabase({ dataDir }));
    // A few small commits on the event loop's connection: far below any autocheckpoint mark.
    for (let i = 0; i < 5; i++) await db.atomically([insert(`k${i}`, `key ${i}`)]);
    // The database file alone (the log left behind) holds only what a checkpoint copied into it.
    const inFileAlone = () => {
      const copy = join(useTempDir(), 'copy.db');
      copyFileSync(join(dataDir, 'switchyard.db'), copy);
      const file = new Libsql(copy);
      try {
        return (file.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE id LIKE 'k%'").get() as { n: number }).n;
      } finally {
        file.close();
      }
    };
    await expect.poll(inFileAlone, { timeout: 5000, interval: 200 }).toBe(5);
  });

  it('keeps the log bounded under commits without a pause, which a checkpoint on another thread never catches up with', async () => {
    const dataDir = useTempDir();
    const db = closeAfterTest(await openDatabase({ dataDir }));
    const pageFrame = 4096 + 24;
    for (let i = 0; i < 4000; i++) await db.atomically([insert(`b${i}`, `key ${i}`)]);
    const { n } = await db.query
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'like', 'b%')
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(4000);
    // The event loop's backstop checkpoint (10,000 pages) let the log start over: never much more than that.
    const logBytes = statSync(join(dataDir, 'switchyard.db-wal')).size;
    expect(logBytes).toBeLessThanOrEqual(10_500 * pageFrame);
    expect(logBytes).toBeGreaterThan(0);
  });
});
