import type { CacheNote } from '../../wire/response-cache-schema.js';

/** The response headers of a cached route's answer: X-Switchyard-Cache always, Age on a hit, the similarity on a semantic one. */
export function cacheHeaders(note: CacheNote): Record<string, string> {
  return {
    'x-switchyard-cache': note.status,
    ...(note.age_s !== undefined ? { age: String(note.age_s) } : {}),
    ...(note.similarity !== undefined ? { 'x-switchyard-cache-similarity': String(note.similarity) } : {}),
  };
}
