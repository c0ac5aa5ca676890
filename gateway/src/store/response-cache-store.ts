/** One stored answer of the response cache, as both stores keep it. */
export interface CacheEntryRecord {
  /** The scope, route, answer form and normalised request, hashed. */
  key: string;
  /** The same without the last user message's text (semantic lookups), hashed. */
  context: string;
  /** Semantic entries: the last user message's embedding (base64 of float32s); null for exact ones. */
  embedding: string | null;
  /** The stored answer (JSON text). */
  answer: string;
  createdAt: number;
  expiresAt: number;
}

/** A semantic candidate: an entry of the same context, with its embedding. */
export interface CacheCandidate {
  key: string;
  embedding: string;
}

/** How large the cache may grow before the least recently used entries go. */
export interface CacheLimits {
  maxEntries: number;
  maxBytes: number;
}

/** The response cache's storage: SQLite in solo mode (response-cache-repository.ts), Redis in team mode (redis/redis-response-cache.ts). */
export interface ResponseCacheStore {
  /** The live entry under `key` (its use noted for the LRU order), or undefined. */
  get(key: string, now: number): Promise<CacheEntryRecord | undefined>;
  /** The live semantic entries of one context. */
  candidates(context: string, now: number): Promise<CacheCandidate[]>;
  /**
   * Stores (or replaces) an entry, then drops expired entries and the least recently used beyond the
   * limits; an entry that does not `fitsCache` is not stored (and evicts nothing).
   */
  put(entry: CacheEntryRecord, now: number): Promise<void>;
}

/**
 * Eviction leaves the cache this share below its limits, so a full cache evicts once per many
 * writes rather than on every one.
 */
export const EVICTION_HEADROOM = 0.9;

/** What an entry weighs against `CacheLimits.maxBytes`: its answer and embedding. */
export const entryBytes = (entry: CacheEntryRecord): number =>
  Buffer.byteLength(entry.answer) + (entry.embedding?.length ?? 0);

/**
 * Whether an entry of `bytes` may be stored: at most the headroom eviction leaves (a tenth of
 * `maxBytes`). A larger one would push out far more than its share, up to every other entry (and
 * itself when it passes the 90 % kept), so one big answer is answered but never stored.
 */
export const fitsCache = (bytes: number, limits: CacheLimits): boolean =>
  bytes <= limits.maxBytes - Math.floor(limits.maxBytes * EVICTION_HEADROOM);
