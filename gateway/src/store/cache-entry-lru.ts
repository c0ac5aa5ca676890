import { entryBytes, type CacheEntryRecord, type CacheLimits } from './response-cache-store.js';

/**
 * Response cache entries in memory, least recently used first out, within the same limits as the
 * store behind them (entries and bytes). It only ever answers an entry still live by its expiry;
 * whoever fills it keeps it a subset of the store (clearing it when the store evicts).
 */
export class CacheEntryLru {
  /** Oldest use first (a Map keeps insertion order; a use moves the entry to the end). */
  private readonly entries = new Map<string, { entry: CacheEntryRecord; bytes: number }>();
  private bytes = 0;

  constructor(private readonly limits: CacheLimits) {}

  /** The live entry under `key` (now the most recently used); an expired one is dropped. */
  get(key: string, now: number): CacheEntryRecord | undefined {
    const held = this.entries.get(key);
    if (!held) return undefined;
    this.drop(key);
    if (held.entry.expiresAt <= now) return undefined;
    this.entries.set(key, held);
    this.bytes += held.bytes;
    return held.entry;
  }

  /** Holds `entry` as the most recently used (replacing one under its key), then drops the oldest past the limits. */
  set(entry: CacheEntryRecord): void {
    this.drop(entry.key);
    const bytes = entryBytes(entry);
    if (bytes > this.limits.maxBytes) return;
    this.entries.set(entry.key, { entry, bytes });
    this.bytes += bytes;
    while (this.entries.size > this.limits.maxEntries || this.bytes > this.limits.maxBytes)
      this.drop(this.entries.keys().next().value!);
  }

  drop(key: string): void {
    const held = this.entries.get(key);
    if (!held) return;
    this.entries.delete(key);
    this.bytes -= held.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
