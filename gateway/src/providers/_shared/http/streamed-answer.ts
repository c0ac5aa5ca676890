import type { Dispatcher } from 'undici';
import { AnswerHandler, type AnswerRules } from './answer-handler.js';

/** Past this many bytes read ahead of the consumer, the upstream socket is paused; it resumes below a quarter. */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * Dispatches one request and resolves, once a 2xx answer's headers arrive, with its body as it comes:
 * an async iterable to read once. Anything else rejects with the rules' error, and so does reading
 * when the exchange fails mid-body. A consumer that stops early (`break`, `return()`) aborts the
 * exchange, which closes the upstream connection.
 */
export function dispatchStreamed(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal,
  rules: AnswerRules,
  /** Told once when the exchange is over: the status, and the error it failed with. */
  over?: (statusCode: number, error?: Error) => void,
): Promise<AsyncIterable<Uint8Array>> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new StreamedAnswer(signal, rules, resolve, reject, over));
  });
}

class StreamedAnswer extends AnswerHandler implements AsyncIterableIterator<Uint8Array> {
  private readonly queue: Buffer[] = [];
  private head = 0;
  private queuedBytes = 0;
  private paused = false;
  private finished = false;
  private failure: Error | undefined;
  private waiter: { resolve: (result: IteratorResult<Uint8Array>) => void; reject: (error: Error) => void } | undefined;
  private opened = false;

  constructor(
    signal: AbortSignal,
    rules: AnswerRules,
    private readonly resolveStart: (body: AsyncIterable<Uint8Array>) => void,
    private readonly rejectStart: (error: Error) => void,
    private readonly over: ((statusCode: number, error?: Error) => void) | undefined,
  ) {
    super(signal, rules);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.take(), done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<Uint8Array>> {
    if (!this.finished && !this.failure) {
      this.finished = true;
      this.settle();
      this.over?.(this.statusCode);
      this.controller?.abort(new Error('The consumer stopped reading.'));
    }
    this.queue.length = this.head = this.queuedBytes = 0;
    return Promise.resolve({ value: undefined, done: true });
  }

  protected started(): void {
    this.opened = true;
    this.resolveStart(this);
  }

  protected data(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.finished) return;
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter.resolve({ value: chunk, done: false });
      return;
    }
    this.queue.push(chunk);
    this.queuedBytes += chunk.byteLength;
    if (!this.paused && this.queuedBytes > READ_AHEAD_BYTES) {
      this.paused = true;
      controller.pause();
    }
  }

  protected ended(): void {
    if (this.finished) return;
    this.finished = true;
    this.settle();
    this.over?.(this.statusCode);
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.resolve({ value: undefined, done: true });
  }

  protected failedWith(error: Error): void {
    if (!this.settle()) return;
    this.over?.(this.statusCode, error);
    if (!this.opened) return this.rejectStart(error);
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  }

  private take(): Buffer {
    const chunk = this.queue[this.head++];
    this.queuedBytes -= chunk.byteLength;
    if (this.head === this.queue.length) this.queue.length = this.head = 0;
    if (this.paused && this.queuedBytes < READ_AHEAD_BYTES / 4) {
      this.paused = false;
      this.controller?.resume();
    }
    return chunk;
  }
}
