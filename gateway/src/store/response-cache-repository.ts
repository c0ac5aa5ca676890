import { sql, type CompiledQuery } from 'kysely';
import type { Database } from './database.js';
import { CacheEntryLru } from './cache-entry-lru.js';
import {
  entryBytes,
  EVICTION_HEADROOM,
  fitsCache,
  type CacheCandidate,
  type CacheEntryRecord,
  type CacheLimits,
  type ResponseCacheStore,
} from './response-cache-store.js';

/**
 * The response cache in the database (`response_cache`): kept over restarts, bounded by entries and
 * bytes, least recently used out first. The entries read or stored lately are also held in memory
 * (a `CacheEntryLru` within the same limits), so a hot entry is answered without a query. A hit only
 * reads: when it was used is noted in memory and written with the next store, so answering from the
 * cache never waits for a write. Stores run on the background writer (SQLite's writer thread), entry,
 * uses and eviction in one transaction. One gateway process owns the table (team mode keeps its cache
 * in Redis).
 *
 * Memory never answers an entry the table no longer has: the repository keeps an upper bound of what
 * the table holds, and only a store that could take it past a limit runs the eviction; that store
 * clears memory (before and after), and the table is counted again once no store is under way.
 */
export class ResponseCacheRepository implements ResponseCacheStore {
  /** Entries read since the last store, and when. */
  private readonly used = new Map<string, number>();
  private readonly memory: CacheEntryLru;
  /** At most what the table holds once the stores under way are written; undefined: not known, the next store may evict. */
  private bound: { entries: number; bytes: number } | undefined;
  /** Stores begun so far, and those not yet written. */
  private stores = 0;
  private storesUnderWay = 0;
  /** Bumped when a store that may evict begins and ends: a row read across one is not held in memory. */
  private evictions = 0;
  private evictingUnderWay = 0;

  constructor(
    private readonly db: Database,
    private readonly limits: CacheLimits,
  ) {
    this.memory = new CacheEntryLru(limits);
  }

  async get(key: string, now: number): Promise<CacheEntryRecord | undefined> {
    const held = this.memory.get(key, now);
    if (held) {
      this.used.set(key, now);
      return held;
    }
    const evictions = this.evictions;
    const row = await this.db.query
      .selectFrom('response_cache')
      .select(['cache_key', 'context_key', 'embedding', 'answer', 'created_at', 'expires_at'])
      .where('cache_key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    this.used.set(key, now);
    const entry: CacheEntryRecord = {
      key: row.cache_key,
      context: row.context_key,
      embedding: row.embedding,
      answer: row.answer,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    };
    if (evictions === this.evictions && this.evictingUnderWay === 0) this.memory.set(entry);
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
    const bytes = entryBytes(entry);
    if (!fitsCache(bytes, this.limits)) return;
    const stored = {
      context_key: entry.context,
      embedding: entry.embedding,
      answer: entry.answer,
      bytes,
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
    const bound = this.bound;
    const fits =
      bound !== undefined && bound.entries < this.limits.maxEntries && bound.bytes + bytes <= this.limits.maxBytes;
    if (fits) {
      bound.entries += 1;
      bound.bytes += bytes;
      this.memory.set(entry);
    } else {
      this.bound = undefined;
      this.evictions++;
      this.evictingUnderWay++;
      this.memory.clear();
    }
    this.stores++;
    this.storesUnderWay++;
    try {
      await this.db.atomicallyInBackground([
        ...uses,
        this.db.query
          .insertInto('response_cache')
          .values({ cache_key: entry.key, ...stored })
          .onConflict((conflict) => conflict.column('cache_key').doUpdateSet(stored))
          .compile(),
        this.db.query.deleteFrom('response_cache').where('expires_at', '<=', now).compile(),
        ...(fits ? [] : this.eviction()),
      ]);
    } catch (error) {
      this.memory.drop(entry.key);
      throw error;
    } finally {
      this.storesUnderWay--;
      if (!fits) {
        this.evictions++;
        this.evictingUnderWay--;
        this.memory.clear();
      }
    }
    if (!fits && this.storesUnderWay === 0) await this.count();
  }

  /**
   * Counts the table, as the bound, unless a store began meanwhile (its row may or may not be
   * counted). A count that fails leaves the bound unknown: the next store evicts if it must and counts again.
   */
  private async count(): Promise<void> {
    const stores = this.stores;
    const counted = await this.db.query
      .selectFrom('response_cache')
      .select([sql<number>`COUNT(*)`.as('entries'), sql<number | null>`SUM(bytes)`.as('bytes')])
      .executeTakeFirst()
      .catch(() => undefined);
    if (counted && stores === this.stores && this.storesUnderWay === 0)
      this.bound = { entries: Number(counted.entries), bytes: Number(counted.bytes ?? 0) };
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
