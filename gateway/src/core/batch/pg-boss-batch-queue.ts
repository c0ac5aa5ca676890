import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Job, PgBoss } from '../../store/job-queue.js';
import type {
  BatchConcurrency,
  BatchJobKind,
  BatchLineQueue,
  BatchQueueHandlers,
  QueuedBatchLine,
} from './batch-line-queue.js';

/** A batch's start (validation, its lines queued) and its end (the files written). */
const BATCH_QUEUE = 'switchyard-batch';
const LINE_QUEUE = 'switchyard-batch-line';
/**
 * pg-boss's shortest heartbeat: each instance touches its lines in flight every 5 s, and a line
 * whose instance died (kill -9, a lost machine) goes back to the queue once its heartbeat is 10 s
 * old, at the next supervise pass (`server.batch_recovery_seconds`).
 */
const HEARTBEAT_SECONDS = 10;
/** A line that failed for a reason of its own (the database away, the instance stopping) is tried again up to this often; its request's own failures are results, not retries. */
const RETRY_LIMIT = 10;
/** Lines are queued this many at a time. */
const INSERT_CHUNK = 500;
/**
 * An idle instance looks for lines after 1 s, then backs off (doubling) to this; a busy one fetches
 * as soon as a line ends, and work queued anywhere wakes it at once (`wake`, over Redis in team mode).
 */
const IDLE_POLL_MS = 1000;
const IDLE_POLL_MAX_MS = 8000;
/** The worker of batch starts and finalises polls this often; `wake` makes it look at once. */
const BATCH_POLL_SECONDS = 8;

interface BatchStep {
  /** Absent on steps queued by an older version: a batch's. */
  kind?: BatchJobKind;
  batchId: string;
  step: 'start' | 'finalise';
}

export interface PgBossBatchQueueSettings {
  concurrency: BatchConcurrency;
  /** The longest a line may run (the request deadline and rate-limit waits) before pg-boss fails it and another instance takes it. */
  lineExpirySeconds: number;
}

interface QueueLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

/** A job id made from a name: queuing the same line (or batch start) again inserts nothing. */
export function stableJobId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The key a line is counted under: its batch's key, or the batch itself for a line queued before lines named their key. */
const keyOf = (line: QueuedBatchLine) => (line.keyId === undefined ? `batch:${line.batchId}` : (line.keyId ?? ''));

/**
 * Team mode's queue (PostgreSQL): batch starts and lines are pg-boss jobs, so every instance on the
 * database takes lines, each at most `concurrency.lines` at once and `concurrency.perBatch` of one
 * batch (a batch at its limit is left out of the fetch). Keys take turns: a free slot goes first to
 * a line of a key with no line in flight here, then of the keys with the fewest (`fetchFairly`), so
 * one key's big batches delay another key's batch by one line. A line's job completes when its
 * result is stored; a line whose instance dies is retried elsewhere once its heartbeat lapses.
 */
export class PgBossBatchQueue implements BatchLineQueue {
  readonly durable = true;
  private readonly abandon = new AbortController();
  private readonly active = new Map<string, Promise<void>>();
  private readonly perBatch = new Map<string, number>();
  /** Lines in flight here per key, and the key of each batch with lines in flight here. */
  private readonly perKey = new Map<string, number>();
  private readonly batchKeys = new Map<string, string>();
  private stopping = false;
  private loop: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** Resolves the fetch loop's wait when a line ends or stopping begins. */
  private wakeLoop: () => void = () => undefined;
  private idleMs = IDLE_POLL_MS;
  private batchWorker: string | undefined;
  private announceQueued: () => void = () => undefined;

  constructor(
    private readonly boss: PgBoss,
    private readonly settings: PgBossBatchQueueSettings,
    private readonly logger: QueueLogger,
  ) {}

  async start(handlers: Record<BatchJobKind, BatchQueueHandlers>): Promise<void> {
    const expireInSeconds = Math.max(HEARTBEAT_SECONDS, this.settings.lineExpirySeconds);
    // A finished line's job (its body) is deleted after an hour: its result is in batch_lines by then.
    const retries = {
      heartbeatSeconds: HEARTBEAT_SECONDS,
      retryLimit: RETRY_LIMIT,
      retryDelay: 1,
      deleteAfterSeconds: 3600,
    };
    await this.ensureQueue(BATCH_QUEUE, { expireInSeconds: 600, ...retries });
    await this.ensureQueue(LINE_QUEUE, { expireInSeconds, ...retries });
    this.batchWorker = await this.boss.work<BatchStep>(
      BATCH_QUEUE,
      { pollingIntervalSeconds: BATCH_POLL_SECONDS, batchSize: 1 },
      async ([job]) => {
        const { kind = 'batch', step, batchId } = job!.data;
        return step === 'finalise' ? handlers[kind].finaliseBatch(batchId) : handlers[kind].startBatch(batchId);
      },
    );
    this.heartbeat = setInterval(() => this.touch(), (HEARTBEAT_SECONDS / 2) * 1000);
    this.loop = this.fetchLines(handlers);
  }

  announceQueuedTo(announce: () => void): void {
    this.announceQueued = announce;
  }

  wake(): void {
    this.idleMs = IDLE_POLL_MS;
    this.wakeLoop();
    if (this.batchWorker) this.boss.notifyWorker(this.batchWorker);
  }

  /** Work was queued here: this instance and the others look at once. */
  private queued(): void {
    this.wake();
    this.announceQueued();
  }

  async queueBatch(batchId: string, kind: BatchJobKind = 'batch'): Promise<void> {
    await this.boss.send(BATCH_QUEUE, { kind, batchId, step: 'start' } satisfies BatchStep, {
      id: stableJobId(`start:${batchId}`),
    });
    this.queued();
  }

  async queueFinalise(batchId: string, kind: BatchJobKind = 'batch'): Promise<void> {
    await this.boss.send(BATCH_QUEUE, { kind, batchId, step: 'finalise' } satisfies BatchStep, {
      id: stableJobId(`finalise:${batchId}`),
    });
    this.queued();
  }

  async queueLines(lines: QueuedBatchLine[]): Promise<void> {
    for (let start = 0; start < lines.length; start += INSERT_CHUNK) {
      const chunk = lines.slice(start, start + INSERT_CHUNK);
      await this.boss.insert(
        LINE_QUEUE,
        chunk.map((line) => ({
          id: stableJobId(`line:${line.batchId}:${line.line}`),
          data: line,
          group: { id: line.batchId },
        })),
      );
    }
    this.queued();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    this.wakeLoop();
    const timer = setTimeout(() => this.abandon.abort(), graceMs);
    try {
      await this.loop;
      while (this.active.size > 0) await Promise.allSettled([...this.active.values()]);
    } finally {
      clearTimeout(timer);
      clearInterval(this.heartbeat);
    }
    await this.boss.stop({ graceful: true, timeout: Math.max(1000, graceMs), close: true });
  }

  /** Keeps up to `concurrency.lines` lines in flight, fetching one as soon as a slot frees up. */
  private async fetchLines(handlers: Record<BatchJobKind, BatchQueueHandlers>): Promise<void> {
    const { lines } = this.settings.concurrency;
    while (!this.stopping) {
      let fetched: Job<QueuedBatchLine> | undefined;
      if (this.active.size < lines) {
        try {
          fetched = await this.fetchFairly();
        } catch (error) {
          this.logger.warn({ err: error }, 'batch queue: could not fetch lines');
        }
      }
      if (fetched && !this.stopping) {
        this.idleMs = IDLE_POLL_MS;
        this.run(fetched, handlers);
        continue;
      }
      if (fetched)
        await this.boss.fail(LINE_QUEUE, fetched.id, { message: 'the instance is stopping' }).catch(() => undefined);
      // Idle, or every slot taken: wait for a line to end, work to be queued, or the next look (backing off while idle).
      const waitMs = this.idleMs;
      if (this.active.size === 0) this.idleMs = Math.min(this.idleMs * 2, IDLE_POLL_MAX_MS);
      await new Promise<void>((resolve) => {
        this.wakeLoop = resolve;
        void sleep(waitMs, undefined, { ref: false }).then(() => resolve());
      });
    }
  }

  /**
   * One line, taken in turns by key: first leaving out the batches of every key with lines in flight
   * here, then of the keys with more than the fewest, and so on; last, only the batches at their
   * limit. A key's batch that has no line here yet is not known to be its key's, so it may get one
   * line before its key's turn.
   */
  private async fetchFairly(): Promise<Job<QueuedBatchLine> | undefined> {
    const full = [...this.perBatch]
      .filter(([, count]) => count >= this.settings.concurrency.perBatch)
      .map(([batchId]) => batchId);
    const levels = [...new Set(this.perKey.values())].sort((a, b) => a - b);
    for (const level of [...levels, Infinity]) {
      const ignored = new Set(full);
      for (const [batchId, key] of this.batchKeys) if (this.perKey.get(key)! >= level) ignored.add(batchId);
      const [fetched] = await this.boss.fetch<QueuedBatchLine>(LINE_QUEUE, {
        batchSize: 1,
        ignoreGroups: ignored.size > 0 ? [...ignored] : null,
      });
      if (fetched) return fetched;
    }
    return undefined;
  }

  private run(job: Job<QueuedBatchLine>, handlers: Record<BatchJobKind, BatchQueueHandlers>): void {
    const batchId = job.data.batchId;
    const key = keyOf(job.data);
    this.perBatch.set(batchId, (this.perBatch.get(batchId) ?? 0) + 1);
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
    this.batchKeys.set(batchId, key);
    const settled = handlers[job.data.kind ?? 'batch']
      .runLine(job.data, this.abandon.signal)
      .then(
        () => this.boss.complete(LINE_QUEUE, job.id),
        (error: unknown) => this.boss.fail(LINE_QUEUE, job.id, { message: (error as Error).message }),
      )
      .then(
        () => undefined,
        (error: unknown) => this.logger.warn({ batch: batchId, err: error }, 'batch queue: could not settle a line'),
      )
      .finally(() => {
        this.active.delete(job.id);
        const left = this.perBatch.get(batchId)! - 1;
        if (left === 0) {
          this.perBatch.delete(batchId);
          this.batchKeys.delete(batchId);
        } else this.perBatch.set(batchId, left);
        const keyLeft = this.perKey.get(key)! - 1;
        if (keyLeft === 0) this.perKey.delete(key);
        else this.perKey.set(key, keyLeft);
        this.wakeLoop();
      });
    this.active.set(job.id, settled);
  }

  /** Tells pg-boss the lines in flight here are alive. */
  private touch(): void {
    const ids = [...this.active.keys()];
    if (ids.length === 0) return;
    this.boss
      .touch(LINE_QUEUE, ids)
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'batch queue: could not send the heartbeat of lines in flight'),
      );
  }

  private async ensureQueue(name: string, options: Parameters<PgBoss['createQueue']>[1]): Promise<void> {
    if (await this.boss.getQueue(name)) return;
    // Another instance may create it at the same moment.
    await this.boss.createQueue(name, options).catch(async (error: unknown) => {
      if (!(await this.boss.getQueue(name))) throw error;
    });
  }
}
