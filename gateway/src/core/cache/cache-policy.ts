import type { CachedTurn } from './cache-keys.js';
import type { ResponseCacheConfig } from '../../wire/response-cache-schema.js';

/** What the cache may do for one request: read a stored answer, store this one; `reason` says why neither. */
export interface CachePolicy {
  read: boolean;
  write: boolean;
  reason?: 'no-store' | 'sampling' | 'no-key' | 'no-cache';
}

/** The directives of a request's Cache-Control header that the cache honours. */
function directives(header: string | undefined): Set<string> {
  return new Set(
    (header ?? '')
      .toLowerCase()
      .split(',')
      .map((directive) => directive.trim().split('=')[0]!),
  );
}

/**
 * Whether a request on a cached route may use the cache: never without a key (no scope to keep it
 * in), never with `Cache-Control: no-store`, never when the turn samples (temperature above 0, or
 * none given, which providers read as 1) unless the route allows it; `no-cache` stores the fresh
 * answer without reading (`max-age=0` too, as browsers send it for a reload).
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
  const fresh = asked.has('no-cache') || /(?:^|,)\s*max-age\s*=\s*0\s*(?:,|$)/i.test(cacheControl ?? '');
  return fresh ? { read: false, write: true, reason: 'no-cache' } : { read: true, write: true };
}
