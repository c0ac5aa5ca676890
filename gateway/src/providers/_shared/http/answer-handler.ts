import type { Dispatcher } from 'undici';
import type { ExchangePhase } from './provider-error-from-failure.js';

export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** How an upstream's answers are read and what their failures become; one set per upstream. */
export interface AnswerRules {
  /** A 2xx body gathered whole longer than this fails the exchange with `tooLarge`. */
  maxBytes: number;
  tooLarge: (statusCode: number) => Error;
  /** A non-2xx body is cut here (its start says what went wrong) and the connection closed. */
  maxErrorBytes: number;
  /** The error a non-2xx answer becomes; `bodyText` is empty when its body could not be read. */
  refused: (statusCode: number, headers: ResponseHeaders, bodyText: string) => Error;
  /** The error an undici failure (timeout, reset, abort) becomes. */
  failed: (error: unknown, signal: AbortSignal, phase: ExchangePhase) => Error;
}

/**
 * The part of an undici dispatch handler that every upstream answer shares: the caller's AbortSignal
 * aborts the exchange at any point (also while it waits for a connection); the agent's connect,
 * first-byte and idle timeouts apply as they do to `request()`; a non-2xx answer's body is gathered
 * up to a cap and becomes `rules.refused`; a failure becomes `rules.failed` with the phase it came in.
 * A subclass says what a 2xx answer's body becomes. Without `request()`'s body stream, an answer costs
 * no stream machinery and no promise per chunk beyond what its reader asks for.
 */
export abstract class AnswerHandler implements Dispatcher.DispatchHandler {
  protected controller: Dispatcher.DispatchController | undefined;
  protected statusCode = 0;
  protected headers: ResponseHeaders = {};
  private errorChunks: Buffer[] | undefined;
  private errorSize = 0;
  private listening = true;

  constructor(
    protected readonly signal: AbortSignal,
    protected readonly rules: AnswerRules,
  ) {
    signal.addEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => {
    this.controller?.abort(this.signal.reason);
  };

  /** The answer is 2xx and its headers are here. */
  protected abstract started(controller: Dispatcher.DispatchController): void;
  protected abstract data(controller: Dispatcher.DispatchController, chunk: Buffer): void;
  protected abstract ended(): void;
  /** The exchange failed or was refused: `error` is what the caller gets. */
  protected abstract failedWith(error: Error): void;

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(this.signal.reason);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: ResponseHeaders): void {
    // An informational answer (103 Early Hints) comes before the real one.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
    if (statusCode < 300) this.started(controller);
    else this.errorChunks = [];
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const errorChunks = this.errorChunks;
    if (!errorChunks) return this.data(controller, chunk);
    const room = this.rules.maxErrorBytes - this.errorSize;
    errorChunks.push(chunk.byteLength <= room ? chunk : chunk.subarray(0, room));
    this.errorSize += Math.min(chunk.byteLength, room);
    if (this.errorSize < this.rules.maxErrorBytes) return;
    this.refuse();
    controller.abort(new Error('The rest of an error answer is not read.'));
  }

  onResponseEnd(): void {
    if (this.errorChunks) this.refuse();
    else this.ended();
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.errorChunks) {
      // What an error answer said is a detail; that it failed, with its status, is what counts.
      this.errorChunks.length = 0;
      this.refuse();
      return;
    }
    this.failedWith(this.rules.failed(error, this.signal, this.statusCode === 0 ? 'headers' : 'body'));
  }

  /** Stops listening to the caller's signal; true the first time only. */
  protected settle(): boolean {
    if (!this.listening) return false;
    this.listening = false;
    this.signal.removeEventListener('abort', this.onAbort);
    return true;
  }

  /** Once: the abort that cuts an error answer short comes back as a response error. */
  private refuse(): void {
    if (!this.listening) return;
    const chunks = this.errorChunks!;
    const text = Buffer.concat(chunks).toString('utf8');
    this.errorChunks = [];
    this.failedWith(this.rules.refused(this.statusCode, this.headers, text));
  }
}
