import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors/gateway-error.js';
import type { AccountService } from '../core/account/account-service.js';
import type { KeyService } from '../core/account/key-service.js';
import type { RateLimiter, RateVerdict } from '../core/account/rate-limiter.js';
import type { ApiKeyRecord } from '../store/keys-repository.js';
import type { RouteAuth } from './fastify-augment.js';
import { routeOf } from './request-context.js';
import { recordQuickStage } from './request-tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The rate verdict of a billable request that team mode did not wait for (see `pendingAdmission`). */
    pendingAdmission: Promise<void> | null;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : undefined;
}

function apiKeyHeader(request: FastifyRequest): string | undefined {
  const value = request.headers['x-api-key'];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

/**
 * The rate verdict (then the spending check) of a billable request that team mode did not wait for
 * before reading the body: the spend reservation goes to Redis beside it, so the two round trips
 * overlap. The verdict still comes first: spend-reservation.ts waits for it before the handler (and
 * drops the hold when it refuses), and the error handler answers with its refusal over any error
 * from reading or validating the body, as if it had been waited for here.
 */
export function pendingAdmission(request: FastifyRequest): Promise<void> | undefined {
  return request.pendingAdmission ?? undefined;
}

/** What authentication asks: who a key is, its rate limit, the account's spending limits, and the metrics token. */
export interface AuthenticationServices {
  keys: KeyService;
  rateLimiter: RateLimiter;
  accounts: AccountService;
  metricsToken: string | undefined;
}

/**
 * Authentication (both key headers, SPEC.md section 5), then the per-key rate limit and the
 * account's and key's spending limits. Routes declare who may call them in `config.auth`.
 */
export function registerAuthentication(
  app: FastifyInstance,
  { keys, rateLimiter, accounts, metricsToken }: AuthenticationServices,
): void {
  const isMetricsToken = metricsTokenCheck(metricsToken);
  app.decorateRequest('pendingAdmission', null);
  // A callback hook: only a key with a requests-per-minute limit waits (for the rate limiter); the others pass in the same turn.
  app.addHook('onRequest', (request, reply, hookDone) => {
    const auth: RouteAuth = routeOf(request).config?.auth ?? 'key';
    if (auth === 'none' || request.method === 'OPTIONS') return hookDone();
    const startedAt = performance.now();
    const done = (error?: Error): void => {
      recordQuickStage(request, 'authenticate', startedAt, error);
      hookDone(error);
    };
    try {
      authenticate(request, reply, auth, done);
    } catch (error) {
      recordQuickStage(request, 'authenticate', startedAt, error);
      throw error;
    }
  });

  /** Who presents the key, and whether its rate limit and the spending limits let the request in. */
  const authenticate = (
    request: FastifyRequest,
    reply: FastifyReply,
    auth: RouteAuth,
    done: (error?: Error) => void,
  ): void => {
    const fromHeader = apiKeyHeader(request);
    const presented = auth === 'x-api-key' ? fromHeader : (bearerToken(request) ?? fromHeader);
    if (!presented) {
      const how =
        auth === 'x-api-key'
          ? 'the X-API-Key header (this endpoint requires it)'
          : 'Authorization: Bearer <key> or X-API-Key: <key>';
      throw new GatewayError(401, 'missing_api_key', `No API key: send it in ${how}.`);
    }
    if (auth === 'owner-or-metrics-token' && isMetricsToken(presented)) return done();
    const admitKey = (key: ApiKeyRecord | undefined): void | Promise<void> => {
      if (!key)
        throw new GatewayError(
          401,
          'invalid_api_key',
          'The API key is unknown or revoked. Create one in the console or with POST /account/keys.',
        );
      request.apiKey = key;
      if (key.guardrails !== null) request.billing.keyGuardrails = keys.guardrailsOf(key);

      if ((auth === 'owner' || auth === 'owner-or-metrics-token') && key.role !== 'owner') {
        const or = auth === 'owner' ? '' : ' or the metrics token (server.metrics_token, GATEWAY_METRICS_TOKEN)';
        throw new GatewayError(403, 'owner_role_required', `This operation requires a key with the Owner role${or}.`);
      }
      const spending = (): void => {
        if (routeOf(request).config?.billable) accounts.assertCanSpend(key);
      };
      // A replay's inner request was counted when its console call came in: one request, one slot.
      if (key.rpm_limit === null || keys.takeAdmission(presented)) return spending();
      const limit = key.rpm_limit;
      const admit = (verdict: RateVerdict): void => {
        if (!verdict.allowed) {
          reply.header('Retry-After', String(verdict.retryAfterSeconds));
          throw new GatewayError(
            429,
            'rate_limit_exceeded',
            `This key allows ${limit} requests per minute; retry in ${verdict.retryAfterSeconds} s.`,
            { retryAfter: verdict.retryAfterSeconds },
          );
        }
        spending();
      };
      const verdict = rateLimiter.take(key.id, limit);
      if (!(verdict instanceof Promise)) return admit(verdict);
      const admission = verdict.then(admit);
      if (!routeOf(request).config?.billable) return admission;
      admission.catch(() => undefined);
      request.pendingAdmission = admission;
    };
    const found = keys.authenticate(presented);
    const admitted = found instanceof Promise ? found.then(admitKey) : admitKey(found);
    if (admitted instanceof Promise) admitted.then(() => done(), done);
    else done();
  };
}

/** Whether a presented bearer token is the metrics token, compared in constant time (by digest, so lengths never differ). */
function metricsTokenCheck(token: string | undefined): (presented: string) => boolean {
  if (!token) return () => false;
  const expected = hash('sha256', token, 'buffer');
  return (presented) => timingSafeEqual(hash('sha256', presented, 'buffer'), expected);
}
