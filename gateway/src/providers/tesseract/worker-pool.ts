import { ProviderError } from '../_shared/provider-error.js';
import type { EngineStatus, QueueDepth } from '../contracts/provider-instance.js';

interface Waiter<Worker> {
  resolve: (worker: Worker) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal;
  onAbort: () => void;
}

function abortedError(): ProviderError {
  return new ProviderError('aborted', 'The OCR request was cancelled.', { code: 'aborted' });
}

export interface WorkerLifecycle<Worker> {
  start: () => Promise<Worker>;
  stop: (worker: Worker) => Promise<unknown>;
}

/** A fixed set of recognition workers; jobs wait in FIFO order for a free one. */
export class WorkerPool<Worker> {
  private readonly idle: Worker[] = [];
  private readonly waiters: Waiter<Worker>[] = [];
  private readonly waitingListeners = new Set<() => void>();
  private starting: Promise<void> | undefined;
  private failure: string | undefined;
  private closed = false;
  private workers: Worker[] = [];

  constructor(
    private readonly size: number,
    private readonly lifecycle: WorkerLifecycle<Worker>,
  ) {}

  status(): EngineStatus {
    if (this.failure) return { state: 'unavailable', detail: this.failure };
    if (this.closed) return { state: 'unavailable', detail: 'The OCR engine has been shut down.' };
    if (this.workers.length === this.size) return { state: 'ready' };
    return this.starting ? { state: 'loading' } : { state: 'cold' };
  }

  queues(): QueueDepth[] {
    return [{ queue: 'ocr_workers', waiting: this.waiters.length, running: this.workers.length - this.idle.length }];
  }

  /** Calls `listener` each time a job starts waiting for a worker (all are busy); returns the unsubscribe. */
  onJobWaiting(listener: () => void): () => void {
    this.waitingListeners.add(listener);
    return () => this.waitingListeners.delete(listener);
  }

  /** Starts every worker; resolves when all are ready. Safe to call repeatedly. */
  warm(): Promise<void> {
    this.starting ??= this.startWorkers();
    return this.starting;
  }

  private async startWorkers(): Promise<void> {
    try {
      const workers = await Promise.all(Array.from({ length: this.size }, () => this.lifecycle.start()));
      if (this.closed) {
        await Promise.all(workers.map((w) => this.lifecycle.stop(w)));
        return;
      }
      this.workers = workers;
      for (const worker of workers) this.release(worker);
    } catch (error) {
      this.failure = `The OCR engine failed to start: ${error instanceof Error ? error.message : String(error)}`;
      throw new ProviderError('unavailable', this.failure, { code: 'ocr_engine_unavailable', cause: error });
    }
  }

  /** Runs `job` on a free worker, starting the pool if it is cold. */
  async run<T>(signal: AbortSignal, job: (worker: Worker) => Promise<T>): Promise<T> {
    if (this.closed)
      throw new ProviderError('unavailable', 'The OCR engine has been shut down.', { code: 'ocr_engine_closed' });
    await this.warm();
    const worker = await this.acquire(signal);
    try {
      return await job(worker);
    } finally {
      this.release(worker);
    }
  }

  private acquire(signal: AbortSignal): Promise<Worker> {
    if (signal.aborted) return Promise.reject(abortedError());
    if (this.idle.length > 0) return Promise.resolve(this.idle.pop() as Worker);
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Worker> = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          reject(abortedError());
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
      for (const listener of [...this.waitingListeners]) listener();
    });
  }

  private release(worker: Worker): void {
    if (this.closed) return;
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(worker);
    } else {
      this.idle.push(worker);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) {
      waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.reject(
        new ProviderError('unavailable', 'The OCR engine is shutting down.', { code: 'ocr_engine_closed' }),
      );
    }
    await this.starting?.catch(() => undefined);
    const workers = this.workers;
    this.workers = [];
    this.idle.length = 0;
    await Promise.all(workers.map((w) => this.lifecycle.stop(w).catch(() => undefined)));
  }
}
