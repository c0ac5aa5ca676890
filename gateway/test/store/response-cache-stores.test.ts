import { describe, expect, it } from 'vitest';
import { RedisResponseCache } from '../../src/store/redis/redis-response-cache.js';
import { ResponseCacheRepository } from '../../src/store/response-cache-repository.js';
import type { CacheEntryRecord, CacheLimits, ResponseCacheStore } from '../../src/store/response-cache-store.js';
import { bothDatabases } from '../support/test-databases.js';
import { testRedisConnections } from '../support/test-redis.js';

/** The response cache's two stores (the database in solo mode, Redis in team mode) keep the same promises. */
const databases = bothDatabases();
const stores: { name: string; open(limits: CacheLimits): Promise<ResponseCacheStore> }[] = [
  ...databases.map((kind) => ({
    name: kind.dialect,
    open: async (limits: CacheLimits) => new ResponseCacheRepository(await kind.open(), limits),
  })),
  {
    name: 'redis',
    open: async (limits: CacheLimits) => new RedisResponseCache((await testRedisConnections()).connections[0]!, limits),
  },
];

const entry = (key: string, now: number, fields: Partial<CacheEntryRecord> = {}): CacheEntryRecord => ({
  key,
  context: 'context-1',
  embedding: null,
  answer: JSON.stringify({ text: `answer ${key}` }),
  createdAt: now,
  expiresAt: now + 60_000,
  ...fields,
});

describe.each(stores)('response cache on $name', ({ open }) => {
  it('answers a stored entry until it expires, and replaces an entry stored again', async () => {
    const store = await open({ maxEntries: 100, maxBytes: 1 << 20 });
    await store.put(entry('a', 1_000, { expiresAt: 2_000 }), 1_000);
    expect((await store.get('a', 1_500))?.answer).toBe(JSON.stringify({ text: 'answer a' }));
    expect(await store.get('a', 2_000)).toBeUndefined();
    expect(await store.get('missing', 1_500)).toBeUndefined();
    await store.put(entry('b', 1_000, { answer: '"first"' }), 1_000);
    await store.put(entry('b', 1_100, { answer: '"second"' }), 1_100);
    expect(await store.get('b', 1_200)).toMatchObject({ answer: '"second"', createdAt: 1_100 });
  });

  it('evicts the least recently used entries past the entry limit, down to 90 %', async () => {
    const store = await open({ maxEntries: 10, maxBytes: 1 << 20 });
    for (let i = 0; i < 10; i++) await store.put(entry(`k${i}`, 1_000 + i), 1_000 + i);
    // k0 is read, so k1 is now the least recently used.
    expect(await store.get('k0', 2_000)).toBeDefined();
    await store.put(entry('k10', 3_000), 3_000);
    const kept = [];
    for (let i = 0; i <= 10; i++) if (await store.get(`k${i}`, 4_000)) kept.push(`k${i}`);
    // 11 entries over a limit of 10: the two least recently used go, leaving 9.
    expect(kept).toEqual(['k0', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k10']);
  });

  it('evicts by bytes too', async () => {
    const store = await open({ maxEntries: 1_000, maxBytes: 10_000 });
    // 992 bytes each: 11 of them pass the 10,000, and the 9 newest are the most that fit in 9,000.
    const big = (key: string, now: number) => entry(key, now, { answer: JSON.stringify('x'.repeat(990)) });
    for (let i = 0; i < 11; i++) await store.put(big(`b${i}`, 1_000 + i), 1_000 + i);
    const kept = [];
    for (let i = 0; i < 11; i++) if (await store.get(`b${i}`, 2_000)) kept.push(`b${i}`);
    expect(kept).toEqual(['b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10']);
  });

  it('never stores an entry larger than a tenth of its bytes, and so never evicts for one', async () => {
    const store = await open({ maxEntries: 1_000, maxBytes: 10_000 });
    for (let i = 0; i < 5; i++) await store.put(entry(`small${i}`, 1_000 + i), 1_000 + i);
    const sized = (key: string, bytes: number) => entry(key, 2_000, { answer: JSON.stringify('x'.repeat(bytes - 2)) });
    await store.put(sized('huge', 9_500), 2_000);
    await store.put(sized('half', 5_000), 2_000);
    await store.put(sized('tenth', 1_000), 2_000);
    const kept = [];
    for (const key of ['small0', 'small1', 'small2', 'small3', 'small4', 'huge', 'half', 'tenth'])
      if (await store.get(key, 3_000)) kept.push(key);
    expect(kept).toEqual(['small0', 'small1', 'small2', 'small3', 'small4', 'tenth']);
  });

  it('lists the live semantic entries of a context with their embeddings', async () => {
    const store = await open({ maxEntries: 100, maxBytes: 1 << 20 });
    await store.put(entry('s1', 1_000, { embedding: 'AAAA' }), 1_000);
    await store.put(entry('s2', 1_000, { embedding: 'BBBB', expiresAt: 1_500 }), 1_000);
    await store.put(entry('s3', 1_000, { embedding: 'CCCC', context: 'other' }), 1_000);
    await store.put(entry('plain', 1_000), 1_000);
    expect(await store.candidates('context-1', 1_200)).toEqual(
      expect.arrayContaining([
        { key: 's1', embedding: 'AAAA' },
        { key: 's2', embedding: 'BBBB' },
      ]),
    );
    expect(await store.candidates('context-1', 1_600)).toEqual([{ key: 's1', embedding: 'AAAA' }]);
  });
});

describe.each(databases)('response cache in the $dialect database, with its entries held in memory', (kind) => {
  it('evicts at the limit when opened again on a full table, and never answers from memory what it evicted', async () => {
    const db = await kind.open();
    const limits = { maxEntries: 10, maxBytes: 1 << 20 };
    const first = new ResponseCacheRepository(db, limits);
    for (let i = 0; i < 10; i++) await first.put(entry(`k${i}`, 1_000 + i), 1_000 + i);
    const again = new ResponseCacheRepository(db, limits);
    // Read (and now held in memory) before the store that evicts.
    for (let i = 0; i < 10; i += 5) expect(await again.get(`k${i}`, 2_000)).toBeDefined();
    await again.put(entry('k10', 3_000), 3_000);
    const kept = [];
    for (let i = 0; i <= 10; i++) if (await again.get(`k${i}`, 4_000)) kept.push(`k${i}`);
    // k0 and k5 were used since: the two least recently used of the rest (k1, k2) went.
    expect(kept).toEqual(['k0', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8', 'k9', 'k10']);
    await db.close();
  });
});
