import type { ApiKeyRecord } from '../store/keys-repository.js';
import type { RequestBilling } from '../core/billing/billing-service.js';

/**
 * Who may call a route: nobody needs a key, any key, a key sent as X-API-Key, an Owner key, or an
 * Owner key or the configured metrics token (server.metrics_token, GATEWAY_METRICS_TOKEN).
 */
export type RouteAuth = 'none' | 'key' | 'x-api-key' | 'owner' | 'owner-or-metrics-token';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Spends money: refused with 402 once the balance or a spending limit is exhausted. */
    billable?: boolean;
    /** Excluded from the usage ledger and the request log (health checks, the log's own feed, the console's files). */
    unlogged?: boolean;
  }
  interface FastifyRequest {
    startedAt: bigint;
    apiKey: ApiKeyRecord | null;
    /** The request's bill: the meter its use case charges, settled by the usage recorder. */
    billing: RequestBilling;
    /** A JSON body as the client sent it (the request log shows it instead of serialising the parsed body again). */
    jsonText: string | null;
    /** `routeOptions`, kept once read (request-context.ts `routeOf`). */
    matchedRoute: FastifyRequest['routeOptions'] | null;
  }
}
