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
  /** Stores (or replaces) an entry, then drops expired entries and the least recently used beyond the limits. */
  put(entry: CacheEntryRecord, now: number): Promise<void>;
}

/**
 * Eviction leaves the cache this share below its limits, so a full cache evicts once per many
 * writes rather than on every one.
 */
export const EVICTION_HEADROOM = 0.9;
