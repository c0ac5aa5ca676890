import { describe, expect, it } from 'vitest';
import { CacheEntryLru } from '../../src/store/cache-entry-lru.js';
import type { CacheEntryRecord } from '../../src/store/response-cache-store.js';

/** The response cache's entries held in memory in front of the database (solo mode). */
const entry = (key: string, fields: Partial<CacheEntryRecord> = {}): CacheEntryRecord => ({
  key,
  context: '',
  embedding: null,
  answer: `"answer ${key}"`,
  createdAt: 1_000,
  expiresAt: 2_000,
  ...fields,
});

describe('cache entries in memory', () => {
  it('answers only the entry under its own key, and never once it expired', () => {
    const memory = new CacheEntryLru({ maxEntries: 10, maxBytes: 1 << 20 });
    memory.set(entry('key:alice|q'));
    expect(memory.get('key:bob|q', 1_500)).toBeUndefined();
    expect(memory.get('key:alice|q', 1_999)?.answer).toBe('"answer key:alice|q"');
    expect(memory.get('key:alice|q', 2_000)).toBeUndefined();
    // An expired entry is dropped, not kept until the limits push it out.
    expect(memory.size).toBe(0);
  });

  it('answers the newest entry stored under a key', () => {
    const memory = new CacheEntryLru({ maxEntries: 10, maxBytes: 1 << 20 });
    memory.set(entry('k', { answer: '"first"' }));
    memory.set(entry('k', { answer: '"second"' }));
    expect(memory.get('k', 1_500)?.answer).toBe('"second"');
    expect(memory.size).toBe(1);
  });

  it('keeps within the entry and byte limits, the least recently used out first', () => {
    const memory = new CacheEntryLru({ maxEntries: 3, maxBytes: 1 << 20 });
    for (const key of ['a', 'b', 'c']) memory.set(entry(key));
    expect(memory.get('a', 1_500)).toBeDefined();
    memory.set(entry('d'));
    expect(['a', 'b', 'c', 'd'].filter((key) => memory.get(key, 1_500))).toEqual(['a', 'c', 'd']);

    const small = new CacheEntryLru({ maxEntries: 100, maxBytes: 250 });
    for (const key of ['x', 'y', 'z']) small.set(entry(key, { answer: JSON.stringify('.'.repeat(98)) }));
    expect(['x', 'y', 'z'].filter((key) => small.get(key, 1_500))).toEqual(['y', 'z']);
    small.set(entry('huge', { answer: JSON.stringify('.'.repeat(300)) }));
    expect(small.get('huge', 1_500)).toBeUndefined();
  });
});
