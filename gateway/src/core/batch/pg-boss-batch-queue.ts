import { createHash } from 'node:crypto';
import type { PgBoss } from '../../store/job-queue.js';
import type { BatchConcurrency, BatchLineQueue, BatchQueueHandlers, QueuedBatchLine } from './batch-line-queue.js';

const START_QUEUE = 'switchyard-batch-start';
const LINE_QUEUE = 'switchyard-batch-line';
/**
 * pg-boss's shortest heartbeat: a running line is marked alive every 5 s, and a line whose instance
 * died (kill -9, a lost machine) goes back to the queue once its heartbeat is 10 s old, at the next
 * supervise pass.
 */
const HEARTBEAT_SECONDS = 10;
/** A line that failed for a reason of its own (the database away) is tried again this often; its request's own failures are results, not retries. */
const RETRY_LIMIT = 10;
/** Lines are queued this many at a time. */
const INSERT_CHUNK = 500;
/** Workers poll this often when NOTIFY does not reach them (and to find lines given back by a dead instance). */
const POLL_SECONDS = 1;

export interface PgBossBatchQueueSettings {
  concurrency: BatchConcurrency;
  /** The longest a line may run (the request deadline and rate-limit waits) before pg-boss fails it and another instance takes it. */
  lineExpirySeconds: number;
}

/** A job id made from a name: queuing the same line (or batch start) again inserts nothing. */
export function stableJobId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Team mode's queue (PostgreSQL): batch starts and lines are pg-boss jobs, so every instance on the
 * database takes lines, each at most `concurrency.lines` at once and `concurrency.perBatch` of one
 * batch (pg-boss's local group concurrency, the batch being the group). A line's job is done when
 * its result is stored; a line whose instance dies is retried elsewhere after its heartbeat lapses.
 */
export class PgBossBatchQueue implements BatchLineQueue {
  readonly durable = true;
  private readonly abandon = new AbortController();

  constructor(
    private readonly boss: PgBoss,
    private readonly settings: PgBossBatchQueueSettings,
  ) {}

  async start(handlers: BatchQueueHandlers): Promise<void> {
    const expireInSeconds = Math.max(HEARTBEAT_SECONDS, this.settings.lineExpirySeconds);
    await this.ensureQueue(START_QUEUE, { expireInSeconds: 600, heartbeatSeconds: HEARTBEAT_SECONDS, retryLimit: RETRY_LIMIT, retryDelay: 1, notify: true });
    await this.ensureQueue(LINE_QUEUE, { expireInSeconds, heartbeatSeconds: HEARTBEAT_SECONDS, retryLimit: RETRY_LIMIT, retryDelay: 1, notify: true });
    const polling = { pollingIntervalSeconds: POLL_SECONDS, notifyPollingIntervalSeconds: POLL_SECONDS };
    await this.boss.work<{ batchId: string }>(START_QUEUE, { ...polling, batchSize: 1 }, async ([job]) => handlers.startBatch(job!.data.batchId));
    const { lines, perBatch } = this.settings.concurrency;
    await this.boss.work<QueuedBatchLine>(LINE_QUEUE, { ...polling, batchSize: 1, localConcurrency: lines, localGroupConcurrency: perBatch }, async ([job]) =>
      handlers.runLine(job!.data, AbortSignal.any([job!.signal, this.abandon.signal])),
    );
  }

  async queueBatch(batchId: string): Promise<void> {
    await this.boss.send(START_QUEUE, { batchId }, { id: stableJobId(`start:${batchId}`) });
  }

  async queueLines(lines: QueuedBatchLine[]): Promise<void> {
    for (let start = 0; start < lines.length; start += INSERT_CHUNK) {
      const chunk = lines.slice(start, start + INSERT_CHUNK);
      await this.boss.insert(
        LINE_QUEUE,
        chunk.map((line) => ({ id: stableJobId(`line:${line.batchId}:${line.line}`), data: line, group: { id: line.batchId } })),
      );
    }
  }

  async stop(graceMs: number): Promise<void> {
    const timer = setTimeout(() => this.abandon.abort(), graceMs);
    try {
      await this.boss.stop({ graceful: true, timeout: graceMs + 1000, close: true });
    } finally {
      clearTimeout(timer);
    }
  }

  private async ensureQueue(name: string, options: Parameters<PgBoss['createQueue']>[1]): Promise<void> {
    if (await this.boss.getQueue(name)) return;
    // Another instance may create it at the same moment.
    await this.boss.createQueue(name, options).catch(async (error: unknown) => {
      if (!(await this.boss.getQueue(name))) throw error;
    });
  }
}
