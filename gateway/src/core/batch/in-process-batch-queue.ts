import type { BatchConcurrency, BatchLineQueue, BatchQueueHandlers, QueuedBatchLine } from './batch-line-queue.js';

interface QueueLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

/**
 * The queue of a gateway alone (SQLite): lines wait in memory, oldest batch first, at most
 * `concurrency.lines` in flight and `concurrency.perBatch` of one batch. Nothing outlives the process:
 * the runner queues unfinished batches again at start (their stored lines are skipped).
 */
export class InProcessBatchQueue implements BatchLineQueue {
  readonly durable = false;
  private handlers: BatchQueueHandlers | undefined;
  /** Waiting lines per batch, in the order the batches were queued. */
  private readonly waiting = new Map<string, QueuedBatchLine[]>();
  private readonly inFlightPerBatch = new Map<string, number>();
  /** `batch:line` of every line waiting or in flight, so a line is never queued twice. */
  private readonly known = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private inFlight = 0;
  private stopped = false;
  private readonly abandon = new AbortController();

  constructor(
    private readonly concurrency: BatchConcurrency,
    private readonly logger: QueueLogger,
  ) {}

  async start(handlers: BatchQueueHandlers): Promise<void> {
    this.handlers = handlers;
    this.pump();
  }

  async queueBatch(batchId: string): Promise<void> {
    if (this.stopped) return;
    this.track(this.handlers!.startBatch(batchId).catch((error: unknown) => this.logger.warn({ batch: batchId, err: error }, 'batch could not be started')));
  }

  async queueFinalise(batchId: string): Promise<void> {
    this.track(this.handlers!.finaliseBatch(batchId).catch((error: unknown) => this.logger.warn({ batch: batchId, err: error }, 'batch could not be finalised')));
  }

  async queueLines(lines: QueuedBatchLine[]): Promise<void> {
    for (const line of lines) {
      const key = `${line.batchId}:${line.line}`;
      if (this.known.has(key)) continue;
      this.known.add(key);
      const queue = this.waiting.get(line.batchId) ?? [];
      queue.push(line);
      this.waiting.set(line.batchId, queue);
    }
    this.pump();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    const timer = setTimeout(() => this.abandon.abort(), graceMs);
    try {
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
    } finally {
      clearTimeout(timer);
    }
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** Starts waiting lines while there is room. */
  private pump(): void {
    if (!this.handlers || this.stopped) return;
    while (this.inFlight < this.concurrency.lines) {
      const line = this.next();
      if (!line) return;
      this.inFlight++;
      this.inFlightPerBatch.set(line.batchId, (this.inFlightPerBatch.get(line.batchId) ?? 0) + 1);
      this.track(
        this.handlers
          .runLine(line, this.abandon.signal)
          .catch((error: unknown) => this.logger.warn({ batch: line.batchId, line: line.line, err: error }, 'batch line failed'))
          .finally(() => {
            this.inFlight--;
            this.inFlightPerBatch.set(line.batchId, this.inFlightPerBatch.get(line.batchId)! - 1);
            this.known.delete(`${line.batchId}:${line.line}`);
            this.pump();
          }),
      );
    }
  }

  /** The first waiting line of the oldest batch that has room. */
  private next(): QueuedBatchLine | undefined {
    for (const [batchId, lines] of this.waiting) {
      if ((this.inFlightPerBatch.get(batchId) ?? 0) >= this.concurrency.perBatch) continue;
      const line = lines.shift();
      if (lines.length === 0) this.waiting.delete(batchId);
      if (line) return line;
    }
    return undefined;
  }
}
