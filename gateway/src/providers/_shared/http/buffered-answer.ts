import type { Dispatcher } from 'undici';
import type { ExchangePhase } from './provider-error-from-failure.js';

export interface BufferedAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The whole body; for a non-2xx answer at most `errorBytes` of it, or empty if reading it failed. */
  body: Buffer;
}

export interface BufferedAnswerLimits {
  /** A 2xx body longer than this fails the exchange with `tooLarge()`. */
  okBytes: number;
  /** A non-2xx body is cut here (its start says what went wrong) and the connection closed. */
  errorBytes: number;
  tooLarge: (statusCode: number) => Error;
}

export type BufferedAnswerFailure = { error: unknown; phase: ExchangePhase };

/**
 * An undici dispatch handler that gathers a whole answer in memory. It does what `request()` and
 * reading its body would, without the body stream, its async iteration and the promises around them:
 * the caller's AbortSignal aborts the exchange at any point (also while it waits for a connection),
 * the agent's connect, first-byte and idle timeouts apply as they do to `request()`, and a failure
 * rejects with the undici error and the phase it happened in.
 */
export function dispatchBuffered(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal,
  limits: BufferedAnswerLimits,
): Promise<BufferedAnswer> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new BufferedAnswerHandler(signal, limits, resolve, reject));
  });
}

class BufferedAnswerHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private statusCode = 0;
  private headers: BufferedAnswer['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private limit = 0;
  private settled = false;

  constructor(
    private readonly signal: AbortSignal,
    private readonly limits: BufferedAnswerLimits,
    private readonly resolve: (answer: BufferedAnswer) => void,
    private readonly reject: (failure: BufferedAnswerFailure) => void,
  ) {
    signal.addEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => {
    this.controller?.abort(this.signal.reason);
  };

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.signal.reason);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: BufferedAnswer['headers']): void {
    this.statusCode = statusCode;
    this.headers = headers;
    this.limit = this.succeeded() ? this.limits.okBytes : this.limits.errorBytes;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    const room = this.limit - this.size;
    if (chunk.byteLength <= room) {
      this.chunks.push(chunk);
      this.size += chunk.byteLength;
      return;
    }
    if (this.succeeded()) {
      const error = this.limits.tooLarge(this.statusCode);
      this.fail(error);
      controller.abort(error);
      return;
    }
    this.chunks.push(chunk.subarray(0, room));
    this.size += room;
    this.finish();
    controller.abort(new Error('The rest of an error answer is not read.'));
  }

  onResponseEnd(): void {
    this.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.statusCode !== 0 && !this.succeeded()) {
      // What an error answer said is a detail; that it failed, with its status, is what counts.
      this.chunks.length = 0;
      this.size = 0;
      this.finish();
      return;
    }
    this.fail(error);
  }

  private succeeded(): boolean {
    return this.statusCode >= 200 && this.statusCode < 300;
  }

  private finish(): void {
    if (!this.settle()) return;
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, body });
  }

  private fail(error: unknown): void {
    if (!this.settle()) return;
    this.reject({ error, phase: this.statusCode === 0 ? 'headers' : 'body' });
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.signal.removeEventListener('abort', this.onAbort);
    return true;
  }
}
