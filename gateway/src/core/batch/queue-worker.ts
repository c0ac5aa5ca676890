import type { BatchQueueHandlers } from './batch-line-queue.js';

/** One kind of work on the batch queue (batches, eval runs), as `BatchWork` starts and stops it. */
export interface QueueWorker {
  /** What the queue calls for this kind's work. */
  readonly handlers: BatchQueueHandlers;
  /** The queue takes work: queue this kind's unfinished work again. */
  resume(): Promise<void>;
  /** Stopping begins: start nothing new; what runs finishes within the queue's grace. */
  beginStop(): void;
  /** The queue stopped: release what the work held (internal tokens). */
  stopped(): void;
  /** Aborts this instance's lines in flight of a batch or run that stopped (cancelled, expired). */
  abortLines(id: string): void;
  /** Team mode: `announce` tells the other instances that a batch or run stopped. */
  announceStopsTo(announce: (id: string) => void): void;
}
