import type { Capability } from '../../providers/contracts/capability.js';
import type { EngineStatus, ProviderInstance } from '../../providers/contracts/provider-instance.js';
import type { Health } from '../../wire/health-schema.js';
import type { BreakerSnapshot } from './circuit-breaker.js';

/** What serves a route: a provider and the model name it is sent. */
interface ServedBy {
  provider: ProviderInstance;
  upstreamModel: string;
}

export interface RouteHealthSources {
  breaker(providerId: string): BreakerSnapshot;
  /** Whether a request to the provider has succeeded on this instance. */
  answered(providerId: string): boolean;
  /** Whether the provider is an upstream HTTP provider (its entry has a base URL). */
  isUpstream(providerId: string): boolean;
  /** The provider's last test on this instance, if any. */
  lastTest(providerId: string): { ok: boolean; latency_ms: number; error?: string } | undefined;
}

/** Health states in which a request is refused or certain to fail. */
export function cannotServe(health: Health): boolean {
  return health.state === 'unreachable' || health.state === 'unavailable' || health.state === 'no_route';
}

/**
 * The one source of health for a provider and for a route on it: /v1/models, /models, /status, the
 * Settings page's providers and every console page read this, so no two of them contradict. An
 * upstream always reports "ready" to the gateway; its health is its breaker's and its last test's.
 */
export class RouteHealth {
  /** Health without breakers or tests: a local engine's own state (for a registry built without the gateway's sources). */
  static enginesOnly(): RouteHealth {
    return new RouteHealth({
      breaker: () => ({ state: 'closed', consecutive_failures: 0, retry_after_seconds: null }),
      answered: () => false,
      isUpstream: () => false,
      lastTest: () => undefined,
    });
  }

  constructor(private readonly sources: RouteHealthSources) {}

  /** A provider's health, from its engine state (`status`, default its own), breaker and last test. */
  provider(provider: ProviderInstance, status: EngineStatus = provider.status()): Health {
    const breaker = this.sources.breaker(provider.id);
    if (breaker.state === 'open') {
      return {
        state: 'unreachable',
        reason: `circuit breaker open after ${breaker.consecutive_failures} failed requests${breaker.retry_after_seconds !== null ? `; next try in ${breaker.retry_after_seconds} s` : ''}`,
      };
    }
    if (status.state === 'unavailable')
      return { state: 'unavailable', ...(status.detail ? { reason: status.detail } : {}) };
    const test = this.sources.lastTest(provider.id);
    if (test && !test.ok)
      return { state: 'unreachable', reason: `the last test failed${test.error ? `: ${test.error}` : ''}` };
    if (breaker.consecutive_failures > 0)
      return {
        state: 'failing',
        reason: `${breaker.consecutive_failures} failed request${breaker.consecutive_failures === 1 ? '' : 's'} in a row`,
      };
    if (!this.sources.isUpstream(provider.id))
      return { state: status.state, ...(status.detail ? { reason: status.detail } : {}) };
    if (test) return { state: 'ready', reason: `tested · ${test.latency_ms} ms` };
    if (this.sources.answered(provider.id)) return { state: 'ready', reason: 'its last request succeeded' };
    return { state: 'not_tested', reason: 'no request has reached it yet; Settings → Test calls it once' };
  }

  /**
   * Whether a capability can be served: the health of the first route that can serve it, else of
   * the first route with the route named in the reason, else no_route.
   */
  capability(
    capability: Capability,
    routes: (ServedBy & { id: string; deployments?: { members: readonly { deployment: ServedBy }[] } })[],
  ): Health {
    const verdicts = routes.map((route) => ({ route, health: this.route(route) }));
    const serving = verdicts.find((verdict) => !cannotServe(verdict.health));
    if (serving) return serving.health;
    const first = verdicts[0];
    if (!first) return { state: 'no_route', reason: `no model route serves ${capability}` };
    return { state: first.health.state, reason: `${first.route.id}: ${first.health.reason ?? first.health.state}` };
  }

  /**
   * A route's health: its provider's, with the state of the route's own model on a provider that
   * loads models one by one. A balanced route's is its first deployment that can serve, else its first's.
   */
  route(route: ServedBy & { deployments?: { members: readonly { deployment: ServedBy }[] } }): Health {
    if (!route.deployments) return this.servedBy(route);
    const verdicts = route.deployments.members.map((member) => this.servedBy(member.deployment));
    return verdicts.find((health) => !cannotServe(health)) ?? verdicts[0] ?? this.servedBy(route);
  }

  private servedBy(route: ServedBy): Health {
    const own = route.provider.status();
    return this.provider(
      route.provider,
      own.state === 'unavailable' ? own : (route.provider.modelStatus?.(route.upstreamModel) ?? own),
    );
  }
}
