import type { ProviderConfig } from '../../config/config-schema.js';
import { DEFAULT_BREAKER } from '../../config/defaults.js';
import {
  CircuitBreaker,
  type BreakerSettings,
  type BreakerSnapshot,
  type BreakerTransition,
} from './circuit-breaker.js';

/** The settings of a provider's breaker: its `breaker:` entry over the defaults. */
export function breakerSettings(config: Pick<ProviderConfig, 'breaker'>): BreakerSettings {
  const cooldownMs = config.breaker?.cooldown_ms ?? DEFAULT_BREAKER.cooldownMs;
  return {
    failureThreshold: config.breaker?.failure_threshold ?? DEFAULT_BREAKER.failureThreshold,
    cooldownMs,
    maxCooldownMs: Math.max(cooldownMs, config.breaker?.max_cooldown_ms ?? DEFAULT_BREAKER.maxCooldownMs),
  };
}

/** Where a breaker's transitions go (team mode: to the other instances). */
export type BreakerTransitionListener = (providerId: string, transition: BreakerTransition) => void;

/**
 * One circuit breaker per configured provider, keyed by provider id. In team mode every transition
 * is announced, and `follow` applies the transitions other instances announced.
 */
export class ProviderBreakers {
  private readonly breakers = new Map<string, CircuitBreaker>();
  private announce: BreakerTransitionListener = () => undefined;

  constructor(
    configs: ProviderConfig[],
    private readonly now: () => number = Date.now,
  ) {
    for (const config of configs) this.breakers.set(config.id, this.create(config.id, breakerSettings(config)));
  }

  /** Sends every later transition to `listener`. */
  announceTo(listener: BreakerTransitionListener): void {
    this.announce = listener;
  }

  /** Another instance's breaker for `providerId` opened or closed. */
  follow(providerId: string, transition: BreakerTransition): void {
    this.for(providerId).follow(transition);
  }

  for(providerId: string): CircuitBreaker {
    let breaker = this.breakers.get(providerId);
    if (!breaker) {
      breaker = this.create(providerId, breakerSettings({}));
      this.breakers.set(providerId, breaker);
    }
    return breaker;
  }

  private create(providerId: string, settings: BreakerSettings): CircuitBreaker {
    return new CircuitBreaker(settings, this.now, (transition) => this.announce(providerId, transition));
  }

  snapshot(providerId: string): BreakerSnapshot {
    return this.for(providerId).snapshot();
  }
}
