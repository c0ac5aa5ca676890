import { ProviderError } from '../_shared/provider-error.js';

interface Waiter {
  start(): void;
  reject(error: unknown): void;
}

/** Weight of the newest task in the moving average of task durations used for Retry-After. */
const SMOOTHING = 0.3;

export function abortedError(): ProviderError {
  return new ProviderError('aborted', 'The request was cancelled by the client.');
}

/**
 * Runs one task at a time with at most `limit` waiting; a full queue is `rate_limited` with a
 * Retry-After estimate from recent task durations. Aborting a waiting task removes it at once.
 */
export class RequestQueue {
  private running = false;
  private readonly waiting: Waiter[] = [];
  private averageMs = 1000;

  constructor(
    private readonly limit: number,
    private readonly onIdle: () => void,
  ) {}

  get busy(): boolean {
    return this.running;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    if (signal.aborted) return Promise.reject(abortedError());
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.running = true;
        const began = Date.now();
        task()
          .then(resolve, reject)
          .finally(() => {
            this.averageMs = (1 - SMOOTHING) * this.averageMs + SMOOTHING * (Date.now() - began);
            this.next();
          });
      };
      if (!this.running) {
        start();
        return;
      }
      if (this.waiting.length >= this.limit) {
        const retryAfter = Math.max(1, Math.ceil((this.averageMs * (this.waiting.length + 1)) / 1000));
        reject(
          new ProviderError(
            'rate_limited',
            `The local model is busy: ${this.waiting.length} requests are already waiting. Retry in about ${retryAfter} s.`,
            {
              retryAfter,
              code: 'local_queue_full',
            },
          ),
        );
        return;
      }
      const onAbort = (): void => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(abortedError());
      };
      const waiter: Waiter = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
          start();
        },
        reject,
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Rejects every waiting task (used when the provider closes). */
  rejectWaiting(error: unknown): void {
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }

  private next(): void {
    const waiter = this.waiting.shift();
    if (waiter) {
      waiter.start();
      return;
    }
    this.running = false;
    this.onIdle();
  }
}
