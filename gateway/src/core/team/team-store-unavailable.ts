import { GatewayError } from '../errors/gateway-error.js';

/** Seconds a client is told to wait while Redis is away (ioredis reconnects within two). */
export const TEAM_STORE_RETRY_SECONDS = 5;

/**
 * The 503 a request gets when the check it needs lives in Redis and Redis does not answer (fail
 * closed: a limit the gateway cannot check is not skipped). The Redis error itself stays in `cause`.
 */
export function teamStoreUnavailable(what: string, cause: unknown): GatewayError {
  const error = new GatewayError(
    503,
    'team_store_unavailable',
    `The gateway cannot check ${what}: the shared Redis does not answer. Retry in ${TEAM_STORE_RETRY_SECONDS} s.`,
    {
      retryAfter: TEAM_STORE_RETRY_SECONDS,
    },
  );
  error.cause = cause;
  return error;
}
