import { GatewayError } from '../errors/gateway-error.js';

/**
 * One request's overall deadline: its `signal` aborts when the client goes away or the deadline
 * passes, whichever comes first, so every attempt, backoff and fallback under it stops at once.
 * `dispose` disarms it (a stream that has started is no longer under the deadline).
 */
export class RequestDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;

  constructor(
    private readonly ms: number,
    client: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error('request deadline exceeded'));
    }, ms);
    this.timer.unref();
    // One controller fed by both, not AbortSignal.any: that one costs a composite signal and weak
    // references on every request.
    if (client.aborted) this.controller.abort(client.reason);
    else client.addEventListener('abort', () => this.controller.abort(client.reason), { once: true });
  }

  get expired(): boolean {
    return this.timedOut;
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
