import type { FastifyReply } from 'fastify';

/** Aborts when the client goes away before the response is complete, so the backend stops working for nobody. */
export function clientAbortSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client closed the connection.'));
  });
  return controller.signal;
}
