import type { DeploymentConfig } from '../../wire/model-route-schema.js';
import type { ProviderInstance } from '../../providers/contracts/provider-instance.js';
import { ProviderError } from '../../providers/_shared/provider-error.js';
import type { DeploymentUsage, MinuteUsage } from './deployment-usage.js';
import { batchedEvents, batchesOf, type BatchedEvents } from '../../streaming/event-batches.js';

/** How long a deployment that answered 429 without Retry-After is skipped. */
export const DEFAULT_COOLDOWN_MS = 5_000;
/** The latency window of `lowest_latency`: the mean of a deployment's last requests. */
const LATENCY_WINDOW = 32;
/**
 * What an attempt that failed on the deployment's side weighs in that window: without it a deployment
 * that never answers (its key refused, its host down) stays "not measured yet" and is tried first by
 * every request.
 */
export const FAILED_ATTEMPT_LATENCY_MS = 10_000;
/** Failures that say the deployment, not the request, is wrong (a 429 has its cool-down instead). */
const DEPLOYMENT_FAILURES: ReadonlySet<string> = new Set([
  'connection',
  'timeout',
  'upstream',
  'unavailable',
  'upstream_auth',
]);

/**
 * One deployment of a balanced route (a provider and the model name it is sent) with what routing
 * reads of it: requests in flight, recent latency, a 429 cool-down and this minute's usage, and the
 * totals the Models page and /metrics show. `route` is the ModelRoute a request it serves runs on.
 */
export class RouteDeployment {
  /** `<provider>/<upstream_model>`, unique within the route. */
  readonly id: string;
  /** The usage counters' key: route and deployment. */
  readonly key: string;
  readonly upstreamModel: string;
  readonly weight: number;
  readonly rpm: number | undefined;
  readonly tpm: number | undefined;
  readonly tags: readonly string[];
  inFlight = 0;
  requests = 0;
  errors = 0;
  tokens = 0;
  spend = 0;
  private coolUntil = 0;
  private readonly latencies = new Float64Array(LATENCY_WINDOW);
  private latencyCount = 0;
  private latencySum = 0;

  constructor(
    routeId: string,
    id: string,
    public provider: ProviderInstance,
    config: DeploymentConfig,
    private readonly usage: DeploymentUsage,
    private readonly now: () => number = Date.now,
  ) {
    this.id = id;
    this.key = `${routeId}\u0000${id}`;
    this.upstreamModel = config.upstream_model ?? routeId;
    this.weight = config.weight ?? 1;
    this.rpm = config.rpm;
    this.tpm = config.tpm;
    this.tags = config.tags ?? [];
  }

  /** Whether routing may send it a request now: not cooling down after a 429, and under its rpm/tpm this minute. */
  available(): boolean {
    if (this.coolUntil > 0 && this.now() < this.coolUntil) return false;
    const used = this.usage.used(this.key);
    return !(
      (this.rpm !== undefined && used.requests >= this.rpm) ||
      (this.tpm !== undefined && used.tokens >= this.tpm)
    );
  }

  /** Counts a request against the rpm/tpm shared by every instance; false when another took the last slot of the minute. */
  claim(): boolean | Promise<boolean> {
    return this.usage.claim(this.key, this.rpm, this.tpm);
  }

  minuteUsage(): MinuteUsage {
    return this.usage.used(this.key);
  }

  /** Mean latency over the window, or undefined before its first answer (tried first by `lowest_latency`). */
  latencyMs(): number | undefined {
    return this.latencyCount === 0 ? undefined : this.latencySum / Math.min(this.latencyCount, LATENCY_WINDOW);
  }

  coolingSeconds(): number {
    const left = this.coolUntil - this.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  started(): void {
    this.inFlight++;
    this.requests++;
  }

  /**
   * An attempt ended: its latency joins the window when it answered, a failure of the deployment's
   * own as FAILED_ATTEMPT_LATENCY_MS; a 429 starts the cool-down (Retry-After, else 5 s).
   */
  finished(ms: number, error: unknown): void {
    this.inFlight--;
    if (error === undefined) return this.measured(ms);
    this.errors++;
    if (!(error instanceof ProviderError)) return;
    if (error.kind === 'rate_limited')
      this.coolUntil = this.now() + (error.retryAfter !== undefined ? error.retryAfter * 1000 : DEFAULT_COOLDOWN_MS);
    else if (DEPLOYMENT_FAILURES.has(error.kind)) this.measured(Math.max(ms, FAILED_ATTEMPT_LATENCY_MS));
  }

  private measured(ms: number): void {
    const slot = this.latencyCount % LATENCY_WINDOW;
    if (this.latencyCount >= LATENCY_WINDOW) this.latencySum -= this.latencies[slot]!;
    this.latencies[slot] = ms;
    this.latencySum += ms;
    this.latencyCount++;
  }

  /**
   * A stream it answered, counted in flight until it ends or its client leaves (an attempt's own count
   * ends at its first byte), so `least_busy` and the Models page see the streams it is still writing;
   * one that fails midway counts as an error. Its batches are read as they came.
   */
  heldWhileRead<E>(events: AsyncIterable<E>, client: AbortSignal): BatchedEvents<E> {
    this.inFlight++;
    let open = true;
    const end = (error?: unknown): void => {
      if (!open) return;
      open = false;
      this.inFlight--;
      client.removeEventListener('abort', left);
      if (error !== undefined && !client.aborted) this.errors++;
    };
    const left = () => end();
    client.addEventListener('abort', left, { once: true });
    const source = batchesOf(events);
    return batchedEvents(
      (async function* () {
        try {
          yield* source;
        } catch (error) {
          end(error);
          throw error;
        } finally {
          end();
        }
      })(),
    );
  }

  /** What a request it served used, at the route's prices. */
  charged(tokens: number, cost: number): void {
    this.tokens += tokens;
    this.spend += cost;
    this.usage.addTokens(this.key, tokens);
  }
}
