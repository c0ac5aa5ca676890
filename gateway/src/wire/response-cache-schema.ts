import { Type, type Static } from '@sinclair/typebox';

/** A model route's response cache, as the config file's `models` list and the Settings API write it (docs/routing.md, "Cache"). */
export const ResponseCacheSchema = Type.Object(
  {
    /** `exact`: the same normalised request; `semantic`: also a last user message close enough to a stored one. */
    mode: Type.Union([Type.Literal('exact'), Type.Literal('semantic')]),
    /** How long an entry answers, in seconds. */
    ttl_s: Type.Integer({ minimum: 1, maximum: 30 * 24 * 3600 }),
    /** Semantic mode: the least cosine similarity of the last user messages' embeddings (default 0.95). */
    similarity: Type.Optional(Type.Number({ minimum: 0.5, maximum: 1 })),
    /** Who shares entries: the key that made them (default) or every key of the account. */
    scope: Type.Optional(Type.Union([Type.Literal('key'), Type.Literal('account')])),
    /** Also cache requests that sample (temperature above 0 or not given), which repeat one answer. */
    allow_sampling: Type.Optional(Type.Boolean()),
    /** A hit is billed the stored answer's tokens at the route's prices (default: free). */
    bill_hits: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ResponseCacheConfig = Static<typeof ResponseCacheSchema>;

/** What the cache did for one response of a cached route: its X-Switchyard-Cache, Age and X-Switchyard-Cache-Similarity headers, and the request log's `cache`. */
export const CacheNoteSchema = Type.Object({
  status: Type.Union([Type.Literal('hit'), Type.Literal('miss'), Type.Literal('bypass')]),
  /** A hit: the stored answer's age in seconds. */
  age_s: Type.Optional(Type.Integer({ minimum: 0 })),
  /** A semantic hit: the cosine similarity of the last user messages. */
  similarity: Type.Optional(Type.Number()),
  /** A bypass: why (`no-store`, `sampling`, `no-key`, `unavailable`); a miss: `no-cache` when the client asked for a fresh answer. */
  reason: Type.Optional(Type.String()),
});
export type CacheNote = Static<typeof CacheNoteSchema>;
export type CacheStatus = CacheNote['status'];
