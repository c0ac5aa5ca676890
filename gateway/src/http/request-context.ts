import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RETRYABLE_STATUSES } from '../core/errors/gateway-error.js';
import type { IdGenerator } from '../core/ids/id-generator.js';
import { newOrderedId } from '../core/ids/ids.js';

const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,256}$/;
const NO_STORE_PATHS = /^\/(account\/|transcript(\/|$|\?))/;

export function clientRequestId(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && CLIENT_REQUEST_ID.test(value) ? value : undefined;
}

/**
 * A request's own id: `req_`, the millisecond it arrived, then 96 random bits. The request log's table
 * is keyed by it, and over ids in time order every row of a batch lands on the rightmost page of that
 * key's B-tree instead of a random page each.
 */
export function newRequestId(ids?: IdGenerator): string {
  return ids ? ids.orderedId('req_') : newOrderedId('req_');
}

/** Fastify's `genReqId`: the client's X-Request-ID when it is a printable token, else a new id. */
export function requestIdOf(ids: IdGenerator): (request: FastifyRequest['raw']) => string {
  return (request) => clientRequestId(request.headers['x-request-id']) ?? newRequestId(ids);
}

/** Headers every response carries, errors included (SPEC.md section 4, common response behaviour). */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('startedAt', 0n);
  app.decorateRequest('firstTokenAt', null);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('matchedRoute', null);

  // Callback hooks, here and in the other per-request hooks that wait for nothing: an async hook costs
  // a promise and a turn of the microtask queue on every request.
  app.addHook('onRequest', (request, reply, done) => {
    startCommonHeaders(request, reply);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    finishCommonHeaders(request, reply);
    done(null, payload);
  });
}

/**
 * The route a request matched (its URL template and config). Fastify's `routeOptions` builds a new
 * object of a dozen fields on every read, and the hooks read it seven times per request.
 */
export function routeOf(request: FastifyRequest): FastifyRequest['routeOptions'] {
  return (request.matchedRoute ??= request.routeOptions);
}

/** The security headers every response carries, parser-level errors included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The headers known when a request arrives: its id, the security headers, no-store where it applies. */
export function startCommonHeaders(request: FastifyRequest, reply: FastifyReply): void {
  request.startedAt = process.hrtime.bigint();
  reply.header('X-Request-ID', request.id);
  reply.headers(SECURITY_HEADERS);
  if (NO_STORE_PATHS.test(request.url)) reply.header('Cache-Control', 'no-store');
}

/** The headers known when the response goes out: processing time, and Retry-After exactly on the retryable statuses. */
export function finishCommonHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Process-Time-Ms', elapsedMs(request.startedAt).toFixed(2));
  if (RETRYABLE_STATUSES.has(reply.statusCode) && !reply.hasHeader('Retry-After')) reply.header('Retry-After', '1');
  if (!RETRYABLE_STATUSES.has(reply.statusCode) && reply.hasHeader('Retry-After')) reply.removeHeader('Retry-After');
}

export function elapsedMs(startedAt: bigint): number {
  return Number(process.hrtime.bigint() - startedAt) / 1e6;
}
