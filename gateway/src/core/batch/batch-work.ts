import type { BatchJobKind, BatchLineQueue } from './batch-line-queue.js';
import type { QueueWorker } from './queue-worker.js';

/**
 * The one batch queue and the kinds of work it runs (batches, eval runs): started once with every
 * kind's handlers, stopped once after every kind stopped starting work, so one queue's concurrency
 * bounds them all and a restart or another instance picks up either.
 */
export class BatchWork {
  constructor(
    private readonly queue: BatchLineQueue,
    private readonly workers: Record<BatchJobKind, QueueWorker>,
  ) {}

  /** Starts the queue, then each kind queues its unfinished work again. */
  async start(): Promise<void> {
    const { batch, eval_run } = this.workers;
    await this.queue.start({ batch: batch.handlers, eval_run: eval_run.handlers });
    for (const worker of Object.values(this.workers)) await worker.resume();
  }

  /** No new work starts; what runs finishes within `graceMs` (then it is abandoned and runs again later). */
  async stop(graceMs: number): Promise<void> {
    for (const worker of Object.values(this.workers)) worker.beginStop();
    await this.queue.stop(graceMs);
    for (const worker of Object.values(this.workers)) worker.stopped();
  }

  /** Team mode: `announce` tells the other instances that work was queued here, so they look for it at once. */
  announceQueuedTo(announce: () => void): void {
    this.queue.announceQueuedTo?.(announce);
  }

  /** Work was queued on another instance: look for it now rather than at the next idle poll. */
  wakeQueue(): void {
    this.queue.wake?.();
  }

  /** Team mode: `announce` tells the other instances that a batch or run stopped, so they abort its lines in flight. */
  announceStopsTo(announce: (id: string) => void): void {
    for (const worker of Object.values(this.workers)) worker.announceStopsTo(announce);
  }

  /** A batch or run stopped on another instance: abort its lines in flight here (ids never collide across kinds). */
  abortLines(id: string): void {
    for (const worker of Object.values(this.workers)) worker.abortLines(id);
  }
}
