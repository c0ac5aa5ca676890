import type { FastifyReply } from 'fastify';
import { BATCH_LINE_HEADER } from '../../core/batch/in-process-batch-executor.js';

/**
 * Aborts when the client goes away before the response is complete, so the backend stops working for
 * nobody; for a batch line run in process, when the line is stopped (its batch cancelled or expired).
 */
export function clientAbortSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const gone = () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('The client closed the connection.'));
  };
  reply.raw.once('close', gone);
  // Only a batch line's request carries the header; any other has no line to look up.
  if (reply.request.headers[BATCH_LINE_HEADER] !== undefined)
    reply.request.batchLineAbort?.addEventListener('abort', gone, { once: true });
  return controller.signal;
}
