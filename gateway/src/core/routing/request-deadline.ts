import { GatewayError } from '../errors/gateway-error.js';

/**
 * One request's overall deadline: its `signal` aborts when the client goes away or the deadline
 * passes, whichever comes first, so every attempt, backoff and fallback under it stops at once.
 * `dispose` disarms it (a stream that has started is no longer under the deadline).
 */
export class RequestDeadline {
  readonly signal: AbortSignal;
  private readonly expiry = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly ms: number,
    client: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.expiry.abort(new Error('request deadline exceeded')), ms);
    this.timer.unref();
    this.signal = AbortSignal.any([client, this.expiry.signal]);
  }

  get expired(): boolean {
    return this.expiry.signal.aborted;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  error(): GatewayError {
    const seconds = this.ms / 1000;
    return new GatewayError(
      504,
      'request_deadline_exceeded',
      `The request did not complete within its deadline of ${seconds} s (retries and fallbacks included). Retry later, or raise server.request_deadline_ms (or the model's request_deadline_ms) in the config file.`,
      { retryAfter: 5 },
    );
  }
}
