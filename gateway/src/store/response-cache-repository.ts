import { sql, type CompiledQuery } from 'kysely';
import type { Database } from './database.js';
import {
  EVICTION_HEADROOM,
  type CacheCandidate,
  type CacheEntryRecord,
  type CacheLimits,
  type ResponseCacheStore,
} from './response-cache-store.js';

/** The entries last read, also kept in memory until the next store: a hot entry is answered without a query. */
const RECENT_ENTRIES = 256;

/**
 * The response cache in the database (`response_cache`): kept over restarts, bounded by entries and
 * bytes, least recently used out first. A hit only reads (the most recent entries from memory): when
 * it was used is noted in memory and written with the next store, so answering from the cache never
 * waits for a write. Stores run on the background writer (SQLite's writer thread), entry, uses and
 * eviction in one transaction. One gateway process owns the table (team mode keeps its cache in Redis).
 */
export class ResponseCacheRepository implements ResponseCacheStore {
  /** Entries read since the last store, and when. */
  private readonly used = new Map<string, number>();
  /** The most recently read entries since the last store, oldest first. */
  private readonly recent = new Map<string, CacheEntryRecord>();

  constructor(
    private readonly db: Database,
    private readonly limits: CacheLimits,
  ) {}

  async get(key: string, now: number): Promise<CacheEntryRecord | undefined> {
    const remembered = this.recent.get(key);
    if (remembered && remembered.expiresAt > now) {
      this.used.set(key, now);
      this.remember(remembered);
      return remembered;
    }
    const row = await this.db.query
      .selectFrom('response_cache')
      .select(['cache_key', 'context_key', 'embedding', 'answer', 'created_at', 'expires_at'])
      .where('cache_key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    this.used.set(key, now);
    return this.remember({
      key: row.cache_key,
      context: row.context_key,
      embedding: row.embedding,
      answer: row.answer,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    });
  }

  private remember(entry: CacheEntryRecord): CacheEntryRecord {
    this.recent.delete(entry.key);
    this.recent.set(entry.key, entry);
    if (this.recent.size > RECENT_ENTRIES) this.recent.delete(this.recent.keys().next().value!);
    return entry;
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
    const uses: CompiledQuery[] = [];
    for (const [key, at] of this.used)
      uses.push(
        this.db.query.updateTable('response_cache').set({ used_at: at }).where('cache_key', '=', key).compile(),
      );
    this.used.clear();
    // A store may evict: what memory holds is read again from the table.
    this.recent.clear();
    await this.db.atomicallyInBackground([
      ...uses,
      this.db.query
        .insertInto('response_cache')
        .values({ cache_key: entry.key, ...stored })
        .onConflict((conflict) => conflict.column('cache_key').doUpdateSet(stored))
        .compile(),
      this.db.query.deleteFrom('response_cache').where('expires_at', '<=', now).compile(),
      ...this.eviction(),
    ]);
  }

  /**
   * Past either limit, the least recently used entries go until the cache is at 90 % of both: the
   * newest uses are kept up to the entries kept, then up to the bytes kept (a running sum).
   */
  private eviction(): CompiledQuery[] {
    const keepEntries = Math.floor(this.limits.maxEntries * EVICTION_HEADROOM);
    const keepBytes = Math.floor(this.limits.maxBytes * EVICTION_HEADROOM);
    return [
      sql`DELETE FROM response_cache
          WHERE (SELECT COUNT(*) FROM response_cache) > ${this.limits.maxEntries}
            AND cache_key IN (SELECT cache_key FROM response_cache
                              ORDER BY used_at DESC, cache_key DESC LIMIT ${Number.MAX_SAFE_INTEGER} OFFSET ${keepEntries})`.compile(
        this.db.query,
      ),
      sql`DELETE FROM response_cache
          WHERE (SELECT SUM(bytes) FROM response_cache) > ${this.limits.maxBytes}
            AND cache_key IN (SELECT cache_key FROM (SELECT cache_key,
                                SUM(bytes) OVER (ORDER BY used_at DESC, cache_key DESC) AS running
                              FROM response_cache) ranked
                              WHERE running > ${keepBytes})`.compile(this.db.query),
    ];
  }
}
