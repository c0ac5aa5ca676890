/** What queued work belongs to: a batch's lines, or an eval run's items (core/evals), on the one queue. */
export type BatchJobKind = 'batch' | 'eval_run';

/** One request of a batch (or one item of an eval run), as queued: enough to run it without reading the input again. */
export interface QueuedBatchLine {
  /** Absent on lines queued by an older version: a batch's. */
  kind?: BatchJobKind;
  /** The batch's id, or the eval run's. */
  batchId: string;
  /** The key that created the batch: lines are taken in turns by key, then by batch. Absent on lines queued by an older version. */
  keyId?: string | null;
  /** The line's place in the input file (0-based). */
  line: number;
  customId: string;
  body: Record<string, unknown>;
}

/** Work the queue hands to the runner. `signal` aborts when the line must be abandoned (the instance stops past its grace, or the queue gave the line to another instance). */
export interface BatchQueueHandlers {
  /** Validates a new batch and queues its lines. */
  startBatch(batchId: string): Promise<void>;
  /** Writes the output and error files of a batch that ended (every line stored, cancelled or expired). */
  finaliseBatch(batchId: string): Promise<void>;
  runLine(line: QueuedBatchLine, signal: AbortSignal): Promise<void>;
}

/** How many lines one instance runs at once. */
export interface BatchConcurrency {
  /** Lines in flight on this instance, all batches together. */
  lines: number;
  /** Lines of one batch in flight on this instance. */
  perBatch: number;
}

/**
 * Where batches and their lines wait to be run: in this process (SQLite, one gateway) or in
 * PostgreSQL through pg-boss (every instance on the database takes lines). Chosen at start.
 */
export interface BatchLineQueue {
  /** True when queued work outlives the process (nothing to queue again at start). */
  readonly durable: boolean;
  /** Starts handing each kind's work to its handlers. */
  start(handlers: Record<BatchJobKind, BatchQueueHandlers>): Promise<void>;
  /** Queues the start of a new batch (validation, then its lines); `kind` defaults to a batch. */
  queueBatch(batchId: string, kind?: BatchJobKind): Promise<void>;
  /** Queues the writing of a batch's files (once per batch; pg-boss retries it if the instance dies). */
  queueFinalise(batchId: string, kind?: BatchJobKind): Promise<void>;
  /** Queues lines; a line queued before for the same batch is not queued twice. */
  queueLines(lines: QueuedBatchLine[]): Promise<void>;
  /** Team mode: `announce` tells the other instances that work was queued here (they then look at once). */
  announceQueuedTo?(announce: () => void): void;
  /** Work was queued (here or on another instance): look for it now instead of at the next idle poll. */
  wake?(): void;
  /**
   * Takes no new work; work in flight finishes within `graceMs`, after which its signals abort
   * (an abandoned line runs again: at the next start, or on another instance).
   */
  stop(graceMs: number): Promise<void>;
}
