import type { BreakerSnapshot, BreakerState } from '../../wire/breaker-schema.js';

export type { BreakerSnapshot, BreakerState };

export interface BreakerSettings {
  /** Failed requests in a row (not attempts: the retries of one request are one failure) that open the breaker. */
  failureThreshold: number;
  /** First cool-down after opening; doubled after each failed trial, up to `maxCooldownMs`. */
  cooldownMs: number;
  maxCooldownMs: number;
}

/** What `admit` hands out: report exactly one outcome of the request it let through. */
export interface BreakerPermit {
  /** The upstream answered as it should. */
  succeeded(): void;
  /** The upstream failed (connection, timeout, 5xx, garbage): counts towards opening. */
  failed(): void;
  /** Neither: the client aborted or sent a bad request; says nothing about the upstream's health. */
  released(): void;
}

/** A change of a breaker that other instances take over (team mode): opened for `remainingMs`, or closed. */
export type BreakerTransition = { state: 'open'; remainingMs: number; cooldownMs: number } | { state: 'closed' };

export type Admission = { admitted: true; permit: BreakerPermit } | { admitted: false; retryAfterSeconds: number };

/**
 * A circuit breaker for one provider: closed until `failureThreshold` requests in a row fail, then
 * open (every request refused at once) for a cool-down, then half-open: exactly one trial request
 * goes through while the others are refused; its success closes the breaker, its failure opens it
 * again for twice the previous cool-down (capped). Results of requests admitted before the breaker
 * opened do not move an open breaker. In team mode `onTransition` tells the other instances, whose
 * breakers take the transition over with `follow`.
 */
export class CircuitBreaker {
  private consecutiveFailures = 0;
  private hasAnswered = false;
  private isOpen = false;
  private openUntil = 0;
  private cooldownMs: number;
  private trialInFlight = false;
  /** Bumped on every transition, so a permit from an older state reports nothing. */
  private generation = 0;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
    private readonly onTransition: (transition: BreakerTransition) => void = () => undefined,
  ) {
    this.cooldownMs = settings.cooldownMs;
  }

  /** Takes over another instance's transition; the permits handed out before it report nothing. */
  follow(transition: BreakerTransition): void {
    this.generation++;
    this.trialInFlight = false;
    if (transition.state === 'closed') {
      this.isOpen = false;
      this.consecutiveFailures = 0;
      this.cooldownMs = this.settings.cooldownMs;
      return;
    }
    this.isOpen = true;
    this.openUntil = this.now() + transition.remainingMs;
    this.cooldownMs = transition.cooldownMs;
  }

  /** Whether a request through this breaker has succeeded on this instance (an upstream that answered is not "not tested"). */
  get answered(): boolean {
    return this.hasAnswered;
  }

  get state(): BreakerState {
    if (!this.isOpen) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half_open';
  }

  snapshot(): BreakerSnapshot {
    const state = this.state;
    return {
      state,
      consecutive_failures: this.consecutiveFailures,
      retry_after_seconds: state === 'open' ? this.secondsLeft() : null,
    };
  }

  admit(): Admission {
    switch (this.state) {
      case 'closed':
        return { admitted: true, permit: this.permit(false) };
      case 'open':
        return { admitted: false, retryAfterSeconds: this.secondsLeft() };
      case 'half_open':
        if (this.trialInFlight) return { admitted: false, retryAfterSeconds: 1 };
        this.trialInFlight = true;
        return { admitted: true, permit: this.permit(true) };
    }
  }

  private permit(trial: boolean): BreakerPermit {
    const generation = this.generation;
    let reported = false;
    const report = (outcome: 'succeeded' | 'failed' | 'released') => {
      if (reported) return;
      reported = true;
      if (trial) this.trialInFlight = false;
      if (generation !== this.generation) return;
      if (outcome === 'succeeded') this.onSuccess();
      else if (outcome === 'failed') this.onFailure(trial);
    };
    return { succeeded: () => report('succeeded'), failed: () => report('failed'), released: () => report('released') };
  }

  private onSuccess(): void {
    this.hasAnswered = true;
    const wasOpen = this.isOpen;
    if (wasOpen) this.generation++;
    this.isOpen = false;
    this.consecutiveFailures = 0;
    this.cooldownMs = this.settings.cooldownMs;
    if (wasOpen) this.onTransition({ state: 'closed' });
  }

  private onFailure(trial: boolean): void {
    this.consecutiveFailures++;
    if (trial) {
      this.cooldownMs = Math.min(this.settings.maxCooldownMs, this.cooldownMs * 2);
      this.open();
    } else if (this.consecutiveFailures >= this.settings.failureThreshold) {
      this.cooldownMs = this.settings.cooldownMs;
      this.open();
    }
  }

  private open(): void {
    this.isOpen = true;
    this.openUntil = this.now() + this.cooldownMs;
    this.generation++;
    this.onTransition({ state: 'open', remainingMs: this.cooldownMs, cooldownMs: this.cooldownMs });
  }

  private secondsLeft(): number {
    return Math.max(1, Math.ceil((this.openUntil - this.now()) / 1000));
  }
}
