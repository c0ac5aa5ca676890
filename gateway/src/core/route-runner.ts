import { setTimeout as sleep } from 'node:timers/promises';
import { ProviderError } from '../providers/_shared/provider-error.js';
import type { Capability } from '../providers/types.js';
import { GatewayError } from './gateway-error.js';
import type { ModelRegistry, ModelRoute } from './model-registry.js';
import { toGatewayError } from './provider-error-mapping.js';

export interface RouteRunnerLogger {
  warn(object: Record<string, unknown>, message: string): void;
}

const MAX_BACKOFF_MS = 2_000;

/**
 * Runs a call on a model's route: checks the engine is up, retries connection errors, 429 and 5xx
 * before the first byte with exponential backoff, then tries the route's fallbacks in order.
 */
export class RouteRunner {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly logger: RouteRunnerLogger,
    private readonly baseBackoffMs = 100,
  ) {}

  async run<T>(first: ModelRoute, capability: Capability, signal: AbortSignal, call: (route: ModelRoute) => Promise<T>): Promise<{ value: T; route: ModelRoute }> {
    const candidates = [first, ...first.fallbacks.map((name) => name)];
    let lastError: GatewayError | undefined;
    for (const candidate of candidates) {
      const route = typeof candidate === 'string' ? this.tryResolve(candidate, capability) : candidate;
      if (!route) continue;
      try {
        return { value: await this.runWithRetries(route, signal, call), route };
      } catch (error) {
        lastError = toGatewayError(error, route.provider.id);
        if (signal.aborted || !this.mayFallBack(error)) throw lastError;
        if (candidates.length > 1) this.logger.warn({ model: route.id, code: lastError.code }, 'route failed; trying the next fallback');
      }
    }
    throw lastError ?? new GatewayError(503, 'no_route_available', `No route for "${first.id}" could serve the request.`);
  }

  private tryResolve(name: string, capability: Capability): ModelRoute | undefined {
    try {
      return this.registry.resolve(name, capability);
    } catch {
      this.logger.warn({ fallback: name }, 'fallback model is not usable; skipped');
      return undefined;
    }
  }

  private assertEngineUp(route: ModelRoute): void {
    const status = route.provider.status();
    if (status.state === 'loading') {
      throw new GatewayError(503, 'engine_warming_up', `The engine behind "${route.id}" is still starting; retry shortly.`, { retryAfter: 10 });
    }
    if (status.state === 'unavailable') {
      throw new GatewayError(503, 'engine_unavailable', `The engine behind "${route.id}" cannot serve: ${status.detail ?? 'unavailable'}`, { retryAfter: 30 });
    }
  }

  private async runWithRetries<T>(route: ModelRoute, signal: AbortSignal, call: (route: ModelRoute) => Promise<T>): Promise<T> {
    this.assertEngineUp(route);
    for (let attempt = 0; ; attempt++) {
      try {
        return await call(route);
      } catch (error) {
        if (signal.aborted) throw new ProviderError('aborted', 'the client closed the request');
        const retryable = error instanceof ProviderError && error.retryable;
        if (!retryable || attempt >= route.maxRetries) throw error;
        const suggested = (error as ProviderError).retryAfter;
        if (suggested !== undefined && suggested * 1000 > MAX_BACKOFF_MS) throw error;
        const backoff = Math.min(MAX_BACKOFF_MS, suggested !== undefined ? suggested * 1000 : this.baseBackoffMs * 2 ** attempt * (0.75 + Math.random() / 2));
        await sleep(backoff, undefined, { signal }).catch(() => undefined);
        if (signal.aborted) throw new ProviderError('aborted', 'the client closed the request');
      }
    }
  }

  private mayFallBack(error: unknown): boolean {
    if (error instanceof GatewayError) return error.code === 'engine_warming_up' || error.code === 'engine_unavailable';
    return error instanceof ProviderError && (error.retryable || error.kind === 'unavailable' || error.kind === 'upstream_auth');
  }
}
