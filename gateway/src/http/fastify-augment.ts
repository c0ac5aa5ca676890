import type { ApiKeyRecord } from '../store/keys-repository.js';
import type { GatewayServices } from '../core/lifecycle/gateway-services.js';

/** Who may call a route: nobody needs a key, any key, a key sent as X-API-Key, or an Owner key. */
export type RouteAuth = 'none' | 'key' | 'x-api-key' | 'owner';

export interface RequestUsage {
  model: string | null;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

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
    usage: RequestUsage | null;
    /** What a stream has used so far, for a client that leaves before the final usage arrives. */
    usageEstimate: (() => RequestUsage) | null;
  }
  interface FastifyInstance {
    services: GatewayServices;
  }
}
