import type { FastifyRequest } from 'fastify';

/** An absolute URL on this gateway, as the client reached it. */
export function publicUrl(request: FastifyRequest, path: string): string {
  return `${request.protocol}://${request.host}${path}`;
}
