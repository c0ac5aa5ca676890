import type { FastifyRequest } from 'fastify';

/** The header that keeps a client's requests on one deployment of a balanced route (docs/routing.md). */
export const STICKY_KEY_HEADER = 'x-switchyard-sticky-key';

/**
 * What keeps a client on one deployment, so a provider's prompt cache keeps working: the
 * X-Switchyard-Sticky-Key header, else the body's OpenAI `user` field; undefined when neither is set.
 */
export function stickyKey(request: FastifyRequest, body: object): string | undefined {
  const header = request.headers[STICKY_KEY_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  return endUserOf(body);
}

/** The end user a client names in the body (OpenAI's `user`), if any. */
export function endUserOf(body: object): string | undefined {
  return 'user' in body && typeof body.user === 'string' && body.user !== '' ? body.user : undefined;
}
