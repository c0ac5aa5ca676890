import type { ProviderConfig } from '../../config/config-schema.js';
import { DEFAULT_BREAKER } from '../../config/defaults.js';
import { CircuitBreaker, type BreakerSettings, type BreakerSnapshot } from './circuit-breaker.js';

/** The settings of a provider's breaker: its `breaker:` entry over the defaults. */
export function breakerSettings(config: Pick<ProviderConfig, 'breaker'>): BreakerSettings {
  const cooldownMs = config.breaker?.cooldown_ms ?? DEFAULT_BREAKER.cooldownMs;
  return {
    failureThreshold: config.breaker?.failure_threshold ?? DEFAULT_BREAKER.failureThreshold,
    cooldownMs,
    maxCooldownMs: Math.max(cooldownMs, config.breaker?.max_cooldown_ms ?? DEFAULT_BREAKER.maxCooldownMs),
  };
}

/** One circuit breaker per configured provider, keyed by provider id. */
export class ProviderBreakers {
  private readonly breakers = new Map<string, CircuitBreaker>();

  constructor(configs: ProviderConfig[], now: () => number = Date.now) {
    for (const config of configs) this.breakers.set(config.id, new CircuitBreaker(breakerSettings(config), now));
  }

  for(providerId: string): CircuitBreaker {
    let breaker = this.breakers.get(providerId);
    if (!breaker) {
      breaker = new CircuitBreaker(breakerSettings({}));
      this.breakers.set(providerId, breaker);
    }
    return breaker;
  }

  snapshot(providerId: string): BreakerSnapshot {
    return this.for(providerId).snapshot();
  }
}
