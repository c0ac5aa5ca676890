import type { CachedTurn } from './cache-keys.js';
import type { ResponseCacheConfig } from '../../wire/response-cache-schema.js';

/** What the cache may do for one request: read a stored answer, store this one; `reason` says why neither. */
export interface CachePolicy {
  read: boolean;
  write: boolean;
  /** `Cache-Control: max-age=N`: a stored answer older than N seconds is not read (the fresh one replaces it). */
  maxAgeS?: number;
  reason?: 'no-store' | 'sampling' | 'no-key' | 'no-cache';
}

/** The directives of a request's Cache-Control header, by lower-case name, with their values (unquoted). */
function directives(header: string | undefined): Map<string, string | undefined> {
  const found = new Map<string, string | undefined>();
  for (const directive of (header ?? '').toLowerCase().split(',')) {
    const [name, value] = directive.split('=', 2).map((part) => part.trim());
    if (name) found.set(name, value?.replace(/^"(.*)"$/, '$1'));
  }
  return found;
}

/**
 * Whether a request on a cached route may use the cache: never without a key (no scope to keep it
 * in), never with `Cache-Control: no-store`, never when the turn samples (temperature above 0, or
 * none given, which providers read as 1) unless the route allows it; `no-cache` stores the fresh
 * answer without reading (`max-age=0` too, as browsers send it for a reload), and `max-age=N` reads
 * only an answer at most N seconds old, as HTTP caches do.
 */
export function cachePolicy(
  config: ResponseCacheConfig,
  turn: CachedTurn,
  keyId: string | undefined,
  cacheControl: string | undefined,
): CachePolicy {
  if (!keyId) return { read: false, write: false, reason: 'no-key' };
  const asked = directives(cacheControl);
  if (asked.has('no-store')) return { read: false, write: false, reason: 'no-store' };
  if (!config.allow_sampling && turn.temperature !== 0) return { read: false, write: false, reason: 'sampling' };
  const maxAge = asked.get('max-age');
  const maxAgeS = maxAge !== undefined && /^\d+$/.test(maxAge) ? Number(maxAge) : undefined;
  if (asked.has('no-cache') || maxAgeS === 0) return { read: false, write: true, reason: 'no-cache' };
  return maxAgeS === undefined ? { read: true, write: true } : { read: true, write: true, maxAgeS };
}
