import type { FastifyInstance } from 'fastify';
import { RETRYABLE_STATUSES } from '../core/gateway-error.js';

const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,256}$/;
const NO_STORE_PATHS = /^\/(account\/|transcript(\/|$|\?))/;

export function clientRequestId(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && CLIENT_REQUEST_ID.test(value) ? value : undefined;
}

/** Headers every response carries, errors included (SPEC.md section 4, common response behaviour). */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('startedAt', 0n);
  app.decorateRequest('apiKey', null);
  app.decorateRequest('usage', null);

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = process.hrtime.bigint();
    reply.header('X-Request-ID', request.id);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    if (NO_STORE_PATHS.test(request.url)) reply.header('Cache-Control', 'no-store');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Process-Time-Ms', elapsedMs(request.startedAt).toFixed(2));
    if (RETRYABLE_STATUSES.has(reply.statusCode) && !reply.hasHeader('Retry-After')) reply.header('Retry-After', '1');
    if (!RETRYABLE_STATUSES.has(reply.statusCode) && reply.hasHeader('Retry-After')) reply.removeHeader('Retry-After');
    return payload;
  });
}

export function elapsedMs(startedAt: bigint): number {
  return Number(process.hrtime.bigint() - startedAt) / 1e6;
}
