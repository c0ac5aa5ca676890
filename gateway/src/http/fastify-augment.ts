import type { ApiKeyRecord } from '../store/keys-repository.js';
import type { ChargedUsage, RequestBilling } from '../core/billing/billing-service.js';

/** How the usage recorder billed a request (http/usage-recorder.ts). */
export interface RecordedRequest {
  status: number;
  usage: ChargedUsage | null;
  latency: number;
  /** Its log entry is written, or it has none to write (a route kept out of the log). */
  logDone: boolean;
}

/** Why an answer failed, for the request log: its error body's code and message, or a stream's error frame's. */
export interface RequestFailure {
  code: string | null;
  message: string | null;
}

/**
 * Who may call a route: nobody needs a key, any key, a key sent as X-API-Key, an Owner key, or an
 * Owner key or the configured metrics token (server.metrics_token, GATEWAY_METRICS_TOKEN).
 */
export type RouteAuth = 'none' | 'key' | 'x-api-key' | 'owner' | 'owner-or-metrics-token';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /**
     * Spends money: refused with 402 once the balance or a spending limit is exhausted, and its
     * estimated cost reserved before the handler runs; `'at-turn'` when the body names an agent or a
     * conversation rather than the model: reserved when the use case knows its chat turn.
     */
    billable?: boolean | 'at-turn';
    /** Excluded from the usage ledger and the request log (health checks, the log's own feed, the console's files). */
    unlogged?: boolean;
  }
  interface FastifyRequest {
    startedAt: bigint;
    /**
     * When a streamed answer's first content left (api/_shared/event-stream.ts): its time to first
     * token, for /metrics and the request log's ttft_ms; null for a whole answer.
     */
    firstTokenAt: bigint | null;
    apiKey: ApiKeyRecord | null;
    /** The request's bill: the meter its use case charges, settled by the usage recorder; made on first read. */
    billing: RequestBilling;
    /** The bill `billing` made, null until it is first read (http/spend-reservation.ts). */
    madeBill: RequestBilling | null;
    /** Set once the usage recorder billed the request. */
    recorded: RecordedRequest | null;
    /** The complete answer (or `[stream]`) the usage recorder redacts into the request log once it has left. */
    responseBodyForLog: string | Buffer | null;
    /** Set when the answer failed: its error body's code and message, or a stream's error frame's. */
    failure: RequestFailure | null;
    /** A JSON body as the client sent it (the request log shows it instead of serialising the parsed body again). */
    jsonText: string | null;
    /** `routeOptions`, kept once read (request-context.ts `routeOf`). */
    matchedRoute: FastifyRequest['routeOptions'] | null;
  }
}
