import type { FastifyInstance } from 'fastify';
import type { InProcessBatchExecutor } from '../core/batch/in-process-batch-executor.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** For a batch line run in process: aborts when the line is stopped (its batch cancelled or expired). */
    batchLineAbort: AbortSignal | undefined;
  }
}

/** Gives each request its batch line's abort, looked up in this gateway's executor only when a route asks. */
export function registerBatchLineAborts(app: FastifyInstance, lines: Pick<InProcessBatchExecutor, 'lineSignal'>): void {
  app.decorateRequest('batchLineAbort', { getter: lines.lineSignal });
}
