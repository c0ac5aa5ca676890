import { performance } from 'node:perf_hooks';
import { readSseEvents } from '../../streaming/sse-reader.js';
import type { ReplayAnswer } from '../../wire/replay-answer-schema.js';
import { inScope, type OwnerScope } from '../../store/owner-scope.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newOrderedId } from '../ids/ids.js';
import { reassembledStream } from './reassembled-stream.js';
import type { RequestLog, RequestLogEntry } from './request-log.js';

/** A request for the gateway's own routes, sent without a socket. */
export interface GatewayRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  payload: string;
  signal?: AbortSignal;
}

/** Its answer, read as it is written (a stream's frames arrive one by one). */
export interface GatewayResponse {
  statusCode: number;
  body: AsyncIterable<Uint8Array | string>;
}

/**
 * The port a replay goes through: the gateway's whole path (authentication, rate limits, the spend
 * reservation, the route, billing, the request log, traces). Composition passes Fastify's `inject`.
 */
export type SendThroughGateway = (request: GatewayRequest) => Promise<GatewayResponse>;

export interface ReplayServiceDeps {
  requestLog: Pick<RequestLog, 'detail' | 'subscribe'>;
  /** Tokens that act as a key inside the gateway (KeyService's internal tokens), so the caller's key pays. */
  keys: { issueInternalToken(keyId: string): string; revokeInternalToken(token: string): void };
  send: SendThroughGateway;
}

/** The client tag of a replayed request in the request log. */
export const REPLAY_CLIENT = 'replay';

/**
 * The JSON endpoints a logged request can be replayed on: they compute an answer. Others change stored
 * state (keys, files, agents, conversations) or take uploads, which the log does not keep.
 */
const REPLAYABLE_PATHS = new Set([
  '/v1/chat/completions',
  '/chat/completions',
  '/v1/completions',
  '/v1/fim/completions',
  '/v1/embeddings',
  '/v1/responses',
  '/v1/ocr',
  '/v1/vision/analyze',
  '/v1/vision/generate',
  '/v1/images/generations',
]);

/** How the request log marks a body it cut to its size cap (request-log.ts `redactBody`). */
const CUT_BODY = /… \[cut from \d+ characters\]$/;

/** How long the replayed request's log entry (its tokens and cost) is waited for once its answer is read. */
const ENTRY_WAIT_MS = 2_000;

/**
 * Sends a logged request again, to its model or another, as the calling key: billed, limited, logged
 * and traced like any request. Only the key that made it or an Owner may; anyone else is told it does
 * not exist.
 */
export class ReplayService {
  constructor(private readonly deps: ReplayServiceDeps) {}

  async replay(
    id: string,
    caller: OwnerScope,
    options: { model?: string; signal?: AbortSignal } = {},
  ): Promise<ReplayAnswer> {
    const entry = await this.deps.requestLog.detail(id);
    if (!entry || caller.keyId === null || !inScope(entry.key_id ?? null, caller))
      throw new GatewayError(
        404,
        'request_not_found',
        `No logged request with id ${id} that this key may replay: the log keeps the most recent requests, and a key replays only its own (an Owner any).`,
      );
    const body = replayableBody(entry);
    if (options.model !== undefined) body.model = options.model;
    const stream = body.stream === true;
    const requestId = newOrderedId('req_');
    const watch = this.watchLog(requestId);
    const token = this.deps.keys.issueInternalToken(caller.keyId);
    const started = performance.now();
    let ttft: number | undefined;
    let status: number;
    let text = '';
    const frames: unknown[] = [];
    try {
      const response = await this.deps.send({
        method: 'POST',
        url: entry.path,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-request-id': requestId,
          'x-switchyard-client': REPLAY_CLIENT,
          'user-agent': 'switchyard-replay',
          // A replay measures the model again: a cached route's stored answer is neither used nor replaced.
          'cache-control': 'no-store',
        },
        payload: JSON.stringify(body),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      status = response.statusCode;
      if (stream && status < 400) {
        for await (const event of readSseEvents(response.body)) {
          ttft ??= performance.now() - started;
          if (event.data !== '[DONE]') frames.push(parsedOr(event.data));
        }
      } else {
        const decoder = new TextDecoder();
        for await (const chunk of response.body)
          text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      }
    } catch (error) {
      watch.stop();
      throw error;
    } finally {
      this.deps.keys.revokeInternalToken(token);
    }
    const latency = performance.now() - started;
    const answer = stream && status < 400 ? reassembledStream(frames) : { body: parsedOr(text) };
    const newEntry = await watch.entry();
    return {
      object: 'request.replay',
      request_id: requestId,
      replay_of: entry.id,
      status,
      model: newEntry?.model ?? (typeof body.model === 'string' ? body.model : null),
      stream,
      latency_ms: Math.round(latency * 100) / 100,
      ...(ttft !== undefined ? { ttft_ms: Math.round(ttft * 100) / 100 } : {}),
      usage: newEntry ? { prompt_tokens: newEntry.prompt_tokens, completion_tokens: newEntry.completion_tokens } : null,
      cost: newEntry?.cost ?? null,
      ...answer,
    };
  }

  /**
   * Watches the log for the entry of the request about to be sent (its tokens and cost are known only
   * once it is logged); `entry` waits for it a moment after the answer, then stops watching.
   */
  private watchLog(requestId: string): { entry(): Promise<RequestLogEntry | undefined>; stop(): void } {
    let found: RequestLogEntry | undefined;
    let wake: (() => void) | undefined;
    const stop = this.deps.requestLog.subscribe((logged) => {
      if (logged.id !== requestId) return;
      found = logged;
      wake?.();
    });
    return {
      async entry() {
        if (!found)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ENTRY_WAIT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        stop();
        return found;
      },
      stop,
    };
  }
}

/** The logged body as the JSON object to send again, or why it cannot be. */
function replayableBody(entry: RequestLogEntry): Record<string, unknown> {
  const contentType = entry.request_headers?.['content-type'] ?? '';
  if (entry.method !== 'POST' || !REPLAYABLE_PATHS.has(entry.path) || /^multipart\//i.test(contentType))
    throw new GatewayError(
      409,
      'request_not_replayable',
      /^multipart\//i.test(contentType)
        ? `${entry.method} ${entry.path} sent an upload (multipart), which the request log does not keep: send the file again instead.`
        : `${entry.method} ${entry.path} cannot be replayed: only the JSON endpoints that compute an answer can (${[...REPLAYABLE_PATHS].join(', ')}).`,
    );
  if (entry.request_body === undefined)
    throw new GatewayError(
      409,
      'request_body_not_kept',
      "The request log did not keep this request's body, so it cannot be sent again. An Owner can turn on request-log bodies (server.request_log_bodies, the console's Settings) for the requests that follow.",
    );
  if (CUT_BODY.test(entry.request_body))
    throw new GatewayError(
      409,
      'request_body_not_kept',
      "The request log kept only the beginning of this request's body (it keeps 4 KiB), so it cannot be sent again.",
    );
  const body = parsedOr(entry.request_body, undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new GatewayError(
      409,
      'request_not_replayable',
      'The logged body is not a JSON object, so it cannot be sent again.',
    );
  return body as Record<string, unknown>;
}

function parsedOr(text: string, fallback: unknown = text): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fallback;
  }
}
