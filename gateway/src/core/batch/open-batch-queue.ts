import type { ServerSettings } from '../../config/file-settings.js';
import type { BatchLineQueue } from './batch-line-queue.js';
import { MAX_RATE_LIMIT_WAIT_MS } from './execute-with-rate-limit-waits.js';
import { InProcessBatchQueue } from './in-process-batch-queue.js';
import { PgBossBatchQueue } from './pg-boss-batch-queue.js';

interface QueueLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

/** pg-boss keeps its tables in this schema of the gateway's PostgreSQL database. */
export const BATCH_QUEUE_SCHEMA = 'pgboss';

/**
 * The batch queue chosen at start: pg-boss on PostgreSQL (every instance on the database takes
 * lines; call after the gateway's migrations), in process on SQLite.
 */
export async function openBatchQueue(
  server: ServerSettings,
  databaseUrl: string | undefined,
  logger: QueueLogger,
): Promise<BatchLineQueue> {
  const concurrency = {
    lines: server.batchConcurrency,
    perBatch: Math.min(server.batchConcurrencyPerBatch, server.batchConcurrency),
  };
  if (!databaseUrl) return new InProcessBatchQueue(concurrency, logger);
  // Loaded on PostgreSQL alone: pg-boss took about 75 ms of every start.
  const { openJobQueue } = await import('../../store/job-queue.js');
  const boss = await openJobQueue(
    { url: databaseUrl, schema: BATCH_QUEUE_SCHEMA, superviseIntervalSeconds: server.batchRecoverySeconds },
    (error) => logger.warn({ err: error }, 'batch queue (pg-boss) error'),
  );
  // A line may run for its request's deadline plus its waits on 429s; past that it is given to another instance.
  return new PgBossBatchQueue(
    boss,
    { concurrency, lineExpirySeconds: Math.ceil((server.requestDeadlineMs + MAX_RATE_LIMIT_WAIT_MS) / 1000) + 30 },
    logger,
  );
}
