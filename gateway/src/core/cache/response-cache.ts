import type { ChatResult, ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { CacheEntryRecord, ResponseCacheStore } from '../../store/response-cache-store.js';
import type { CacheNote } from '../../wire/response-cache-schema.js';
import type { UsageMeter } from '../billing/billing-service.js';
import { newId } from '../ids/ids.js';
import type { ModelRoute } from '../routing/model-registry.js';
import { cacheKeysOf, routeKeyOf, type CacheKeys, type CachedTurn } from './cache-keys.js';
import { cachePolicy } from './cache-policy.js';
import { encodeVector, nearest } from './vectors.js';
import { recordedBatches, replayedBatches, type AnswerStamp, type StoredAnswer } from './stored-answer.js';

/** Who asks and how: the request's key and its Cache-Control header. */
export interface CacheAsk {
  keyId: string | undefined;
  cacheControl: string | undefined;
  /** The end user the client names (OpenAI's `user`): a semantic lookup answers only from that user's entries. Read only on a cached route. */
  endUser?: () => string | undefined;
}

/** What the cache did for a chat outcome: the note for the headers and the log, and the stamp the answer must carry. */
export interface CacheOutcome {
  note: CacheNote;
  stamp?: AnswerStamp;
}

/** The last user message's embedding, by the built-in embedding model. */
export type EmbedText = (text: string, signal: AbortSignal) => Promise<number[]>;

type Form =
  { kind: 'json'; result: ChatResult } | { kind: 'stream'; batches: AsyncIterable<readonly ChatStreamEvent[]> };

const FREE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
const DEFAULT_SIMILARITY = 0.95;

/**
 * The routes' response cache (docs/routing.md, "Cache"): a request on a route with `cache` is looked
 * up before it is routed and its answer kept after, in its key's (or the account's) scope. A failing
 * store never fails a request: it is reported and the request goes to the provider.
 */
export class ResponseCache {
  /** Stored answers as read, by the record the store gave: a store that holds its records in memory gives the same one on each hit, parsed once. */
  private readonly parsed = new WeakMap<CacheEntryRecord, StoredAnswer>();

  constructor(
    private readonly store: ResponseCacheStore,
    private readonly embed: EmbedText | undefined,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Undefined when the route has no cache; else a hit to replay, or a lookup that keeps the answer. */
  async lookup(
    route: ModelRoute,
    turn: CachedTurn,
    stream: boolean,
    ask: CacheAsk | undefined,
    signal: AbortSignal,
  ): Promise<CacheLookup | undefined> {
    const config = route.cache;
    if (!config || !ask) return undefined;
    const policy = cachePolicy(config, turn, ask.keyId, ask.cacheControl);
    if (!policy.write) return new CacheLookup(this, route, { status: 'bypass', reason: policy.reason });
    const scope = config.scope === 'account' ? 'account' : `key:${ask.keyId}`;
    const keys = cacheKeysOf(scope, routeKeyOf(route), stream ? 'stream' : 'json', turn, {
      semantic: config.mode === 'semantic',
      endUser: ask.endUser?.(),
    });
    const semantic = config.mode === 'semantic' && keys.fuzzyText !== undefined && this.embed !== undefined;
    try {
      const now = this.now();
      let embedding: number[] | undefined;
      if (policy.read) {
        let found = await this.store.get(keys.exact, now);
        let similarity: number | undefined;
        if (!found && semantic) {
          embedding = await this.embed!(keys.fuzzyText!, signal);
          const best = nearest(
            embedding,
            await this.store.candidates(keys.context, now),
            config.similarity ?? DEFAULT_SIMILARITY,
          );
          if (best) {
            found = await this.store.get(best.key, now);
            similarity = Math.round(best.similarity * 10_000) / 10_000;
          }
        }
        const age = found ? Math.max(0, Math.floor((now - found.createdAt) / 1000)) : 0;
        // An answer older than the client's max-age is a miss, which the fresh answer replaces.
        if (found && (policy.maxAgeS === undefined || age <= policy.maxAgeS)) {
          const note: CacheNote = { status: 'hit', age_s: age, ...(similarity !== undefined ? { similarity } : {}) };
          return new CacheLookup(this, route, note, { stored: this.storedAnswer(found) });
        }
      }
      if (semantic && !embedding) embedding = await this.embed!(keys.fuzzyText!, signal);
      const note: CacheNote = { status: 'miss', ...(policy.reason ? { reason: policy.reason } : {}) };
      return new CacheLookup(this, route, note, { keys, embedding, ttlMs: config.ttl_s * 1000 });
    } catch (error) {
      if (signal.aborted) throw error;
      this.onError(error);
      return new CacheLookup(this, route, { status: 'bypass', reason: 'unavailable' });
    }
  }

  private storedAnswer(record: CacheEntryRecord): StoredAnswer {
    let stored = this.parsed.get(record);
    if (!stored) {
      stored = JSON.parse(record.answer) as StoredAnswer;
      this.parsed.set(record, stored);
    }
    return stored;
  }

  /** Keeps an answer; a store that fails is reported, never the request's failure. */
  async keep(keys: CacheKeys, embedding: number[] | undefined, ttlMs: number, answer: StoredAnswer): Promise<void> {
    const now = this.now();
    try {
      await this.store.put(
        {
          key: keys.exact,
          context: keys.context,
          embedding: embedding ? encodeVector(embedding) : null,
          answer: JSON.stringify(answer),
          createdAt: now,
          expiresAt: now + ttlMs,
        },
        now,
      );
    } catch (error) {
      this.onError(error);
    }
  }
}

/**
 * Whether a choice of the answer finished with `error` (a generation that broke off, as Mistral's API
 * and llama.cpp report it): the exchange succeeded but the answer is a failure, never kept.
 */
function brokeOff(answer: StoredAnswer['answer']): boolean {
  return answer.kind === 'json'
    ? answer.result.choices.some((choice) => choice.finish_reason === 'error')
    : answer.batches.some((batch) => batch.some((event) => event.type === 'finish' && event.finish_reason === 'error'));
}

/** One request's use of the cache: a hit it replays, or the miss (or bypass) whose answer it keeps. */
export class CacheLookup {
  constructor(
    private readonly cache: ResponseCache,
    private readonly route: ModelRoute,
    readonly note: CacheNote,
    private readonly entry: {
      stored?: StoredAnswer;
      keys?: CacheKeys;
      embedding?: number[];
      ttlMs?: number;
    } = {},
  ) {}

  /** A hit as the chat outcome the original was, billed as the route says (free by default); undefined on a miss. */
  replay(meter: UsageMeter) {
    const stored = this.entry.stored;
    if (!stored) return undefined;
    meter.charge(this.route, this.route.cache?.bill_hits ? stored.usage : FREE);
    meter.noteCache(this.note);
    const cache: CacheOutcome = { note: this.note, stamp: stored.stamp };
    const route = this.route;
    return stored.answer.kind === 'json'
      ? { kind: 'json' as const, route, result: stored.answer.result, cache }
      : { kind: 'stream' as const, route, batches: replayedBatches(stored.answer.batches), cache, whole: true };
  }

  /**
   * The provider's answer with the cache's note, kept (a whole answer at once, a stream once it ended
   * whole) when the requested route served it: a fallback model's answer is not the route's, and kept
   * under its key it would answer for the route once the route is healthy again.
   */
  async keep(
    outcome: Form & { route: ModelRoute },
    meter: UsageMeter,
  ): Promise<Form & { route: ModelRoute; cache: CacheOutcome }> {
    meter.noteCache(this.note);
    const { keys, ttlMs } = this.entry;
    if (!keys || ttlMs === undefined || outcome.route.id !== this.route.id)
      return { ...outcome, cache: { note: this.note } };
    const stamp: AnswerStamp = {
      id: newId('chatcmpl-'),
      created: Math.floor(Date.now() / 1000),
      model: outcome.route.id,
    };
    const cache = { note: this.note, stamp };
    const keep = async (answer: StoredAnswer['answer'], usage: TokenUsage) => {
      if (!brokeOff(answer)) await this.cache.keep(keys, this.entry.embedding, ttlMs, { stamp, usage, answer });
    };
    const route = outcome.route;
    if (outcome.kind === 'json') {
      await keep({ kind: 'json', result: outcome.result }, outcome.result.usage);
      return { kind: 'json', route, result: outcome.result, cache };
    }
    const batches = recordedBatches(outcome.batches, (kept, usage) => keep({ kind: 'stream', batches: kept }, usage));
    return { kind: 'stream', route, batches, cache };
  }
}
