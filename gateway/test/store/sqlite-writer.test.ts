import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/database.js';
import { UsageRepository } from '../../src/store/usage-repository.js';
import { useTempDir } from '../support/use-resources.js';

// SQLite's transactions run on a writer thread with its own connection (store/sqlite-writer.ts).
describe('SQLite writes on the writer thread', () => {
  const insert = (id: string, name: string) => CompiledQuery.raw('INSERT INTO api_keys (id, name, role, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)', [id, name, 'member', 'sk-sy-…', `hash-${id}`, 1]);

  it('a committed transaction is read at once on the gateway connection, and one failing statement leaves none of its transaction', async () => {
    const db = await openDatabase({ dataDir: useTempDir() });
    try {
      await db.atomically([insert('k1', 'first'), insert('k2', 'second')]);
      expect((await db.query.selectFrom('api_keys').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['k1', 'k2']);

      // k3 is fine, k1 again breaks the primary key: the whole transaction is refused, with SQLite's own code.
      await expect(db.atomically([insert('k3', 'third'), insert('k1', 'again')])).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
      expect((await db.query.selectFrom('api_keys').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['k1', 'k2']);

      // The writer goes on after a refused transaction.
      await db.atomically([insert('k4', 'fourth')]);
      expect(await db.query.selectFrom('api_keys').select('id').where('id', '=', 'k4').executeTakeFirst()).toEqual({ id: 'k4' });
    } finally {
      await db.close();
    }
  });

  it('writes sent before close are all committed, and the file holds them after a reopen; a write after close is refused', async () => {
    const dataDir = useTempDir();
    const db = await openDatabase({ dataDir });
    const usage = new UsageRepository(db);
    const entry = (i: number) => ({ time: 1_764_000_000_000 + i, request_id: `r${i}`, key_id: null, method: 'POST', route: '/v1/chat/completions', model: 'm', status: 200, latency_ms: 1, prompt_tokens: 1, completion_tokens: 1, cost: 0, entry_id: `use_${i}` });
    const writes = Array.from({ length: 50 }, (_, i) => usage.append([entry(i)]));
    await db.close();
    await Promise.all(writes);
    await expect(db.atomically([insert('late', 'late')])).rejects.toThrow(/closed/);

    const reopened = await openDatabase({ dataDir });
    try {
      expect(await new UsageRepository(reopened).storedEntryIds(Array.from({ length: 50 }, (_, i) => `use_${i}`))).toHaveProperty('size', 50);
    } finally {
      await reopened.close();
    }
  });
});
