import type {
  BatchConcurrency,
  BatchJobKind,
  BatchLineQueue,
  BatchQueueHandlers,
  QueuedBatchLine,
} from './batch-line-queue.js';

interface QueueLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

interface WaitingBatch {
  key: string;
  lines: QueuedBatchLine[];
  /** When a line of the batch last started (see `turn`). */
  turn: number;
}

/**
 * The queue of a gateway alone (SQLite): lines wait in memory, at most `concurrency.lines` in flight
 * and `concurrency.perBatch` of one batch, taken in turns: a free slot goes to the key whose line
 * started longest ago, and among its batches to the one served longest ago, so one key's big batches
 * delay another key's batch by one line, not by their length. Nothing outlives the process: the
 * runner queues unfinished batches again at start (their stored lines are skipped).
 */
export class InProcessBatchQueue implements BatchLineQueue {
  readonly durable = false;
  private handlers: Record<BatchJobKind, BatchQueueHandlers> | undefined;
  /** Waiting lines per batch, in the order the batches were queued. */
  private readonly waiting = new Map<string, WaitingBatch>();
  /** When each key with waiting lines last had a line started; a key or batch that starts waiting ranks just before those served since. */
  private readonly keyTurns = new Map<string, number>();
  private turns = 0;
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

  async start(handlers: Record<BatchJobKind, BatchQueueHandlers>): Promise<void> {
    this.handlers = handlers;
    this.pump();
  }

  async queueBatch(batchId: string, kind: BatchJobKind = 'batch'): Promise<void> {
    if (this.stopped) return;
    this.track(
      this.handlers![kind].startBatch(batchId).catch((error: unknown) =>
        this.logger.warn({ batch: batchId, err: error }, 'batch could not be started'),
      ),
    );
  }

  async queueFinalise(batchId: string, kind: BatchJobKind = 'batch'): Promise<void> {
    this.track(
      this.handlers![kind].finaliseBatch(batchId).catch((error: unknown) =>
        this.logger.warn({ batch: batchId, err: error }, 'batch could not be finalised'),
      ),
    );
  }

  async queueLines(lines: QueuedBatchLine[]): Promise<void> {
    for (const line of lines) {
      const key = `${line.batchId}:${line.line}`;
      if (this.known.has(key)) continue;
      this.known.add(key);
      const batch = this.waiting.get(line.batchId);
      if (batch) batch.lines.push(line);
      else {
        const owner = line.keyId ?? '';
        this.waiting.set(line.batchId, { key: owner, lines: [line], turn: this.turns - 0.5 });
        if (!this.keyTurns.has(owner)) this.keyTurns.set(owner, this.turns - 0.5);
      }
    }
    this.pump();
  }

  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    this.keyTurns.clear();
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
        this.handlers[line.kind ?? 'batch']
          .runLine(line, this.abandon.signal)
          .catch((error: unknown) =>
            this.logger.warn({ batch: line.batchId, line: line.line, err: error }, 'batch line failed'),
          )
          .finally(() => {
            this.inFlight--;
            this.inFlightPerBatch.set(line.batchId, this.inFlightPerBatch.get(line.batchId)! - 1);
            this.known.delete(`${line.batchId}:${line.line}`);
            this.pump();
          }),
      );
    }
  }

  /** The next line of the batch with room whose key, then whose batch, had a line started longest ago. */
  private next(): QueuedBatchLine | undefined {
    let chosen: [string, WaitingBatch] | undefined;
    for (const candidate of this.waiting) {
      const [batchId, batch] = candidate;
      if ((this.inFlightPerBatch.get(batchId) ?? 0) >= this.concurrency.perBatch) continue;
      if (!chosen) chosen = candidate;
      else {
        const [keyTurn, chosenKeyTurn] = [this.keyTurns.get(batch.key)!, this.keyTurns.get(chosen[1].key)!];
        if (keyTurn < chosenKeyTurn || (keyTurn === chosenKeyTurn && batch.turn < chosen[1].turn)) chosen = candidate;
      }
    }
    if (!chosen) return undefined;
    const [batchId, batch] = chosen;
    const line = batch.lines.shift()!;
    batch.turn = ++this.turns;
    this.keyTurns.set(batch.key, this.turns);
    if (batch.lines.length === 0) {
      this.waiting.delete(batchId);
      if (![...this.waiting.values()].some((other) => other.key === batch.key)) this.keyTurns.delete(batch.key);
    }
    return line;
  }
}
