import type { Database } from './database.js';
import {
  EVICTION_HEADROOM,
  type CacheCandidate,
  type CacheEntryRecord,
  type CacheLimits,
  type ResponseCacheStore,
} from './response-cache-store.js';

/** The response cache in the database (`response_cache`): kept over restarts, bounded by entries and bytes, least recently used out first. */
export class ResponseCacheRepository implements ResponseCacheStore {
  constructor(
    private readonly db: Database,
    private readonly limits: CacheLimits,
  ) {}

  async get(key: string, now: number): Promise<CacheEntryRecord | undefined> {
    const row = await this.db.query
      .selectFrom('response_cache')
      .select(['cache_key', 'context_key', 'embedding', 'answer', 'created_at', 'expires_at'])
      .where('cache_key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    await this.db.query.updateTable('response_cache').set({ used_at: now }).where('cache_key', '=', key).execute();
    return {
      key: row.cache_key,
      context: row.context_key,
      embedding: row.embedding,
      answer: row.answer,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
  }

  async candidates(context: string, now: number): Promise<CacheCandidate[]> {
    const rows = await this.db.query
      .selectFrom('response_cache')
      .select(['cache_key', 'embedding'])
      .where('context_key', '=', context)
      .where('expires_at', '>', now)
      .where('embedding', 'is not', null)
      .execute();
    return rows.map((row) => ({ key: row.cache_key, embedding: row.embedding! }));
  }

  async put(entry: CacheEntryRecord, now: number): Promise<void> {
    const stored = {
      context_key: entry.context,
      embedding: entry.embedding,
      answer: entry.answer,
      bytes: Buffer.byteLength(entry.answer) + (entry.embedding?.length ?? 0),
      created_at: entry.createdAt,
      expires_at: entry.expiresAt,
      used_at: now,
    };
    await this.db.query
      .insertInto('response_cache')
      .values({ cache_key: entry.key, ...stored })
      .onConflict((conflict) => conflict.column('cache_key').doUpdateSet(stored))
      .execute();
    await this.evict(now);
  }

  private async evict(now: number): Promise<void> {
    await this.db.query.deleteFrom('response_cache').where('expires_at', '<=', now).execute();
    const totals = await this.db.query
      .selectFrom('response_cache')
      .select((eb) => [eb.fn.countAll<number>().as('entries'), eb.fn.sum<number | null>('bytes').as('bytes')])
      .executeTakeFirstOrThrow();
    let entries = Number(totals.entries);
    let bytes = Number(totals.bytes ?? 0);
    if (entries <= this.limits.maxEntries && bytes <= this.limits.maxBytes) return;
    const keepEntries = Math.floor(this.limits.maxEntries * EVICTION_HEADROOM);
    const keepBytes = Math.floor(this.limits.maxBytes * EVICTION_HEADROOM);
    const oldest = await this.db.query
      .selectFrom('response_cache')
      .select(['cache_key', 'bytes'])
      .orderBy('used_at')
      .orderBy('cache_key')
      .execute();
    const doomed: string[] = [];
    for (const row of oldest) {
      if (entries <= keepEntries && bytes <= keepBytes) break;
      doomed.push(row.cache_key);
      entries -= 1;
      bytes -= Number(row.bytes);
    }
    for (let start = 0; start < doomed.length; start += 500)
      await this.db.query
        .deleteFrom('response_cache')
        .where('cache_key', 'in', doomed.slice(start, start + 500))
        .execute();
  }
}
