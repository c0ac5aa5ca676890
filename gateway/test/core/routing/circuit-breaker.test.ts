import { describe, expect, it } from 'vitest';
import {
  CircuitBreaker,
  type Admission,
  type BreakerPermit,
  type BreakerTransition,
} from '../../../src/core/routing/circuit-breaker.js';

function admitted(admission: Admission): BreakerPermit {
  if (!admission.admitted) throw new Error(`refused for ${admission.retryAfterSeconds} s`);
  return admission.permit;
}

describe('CircuitBreaker (injected clock)', () => {
  const settings = { failureThreshold: 3, cooldownMs: 10_000, maxCooldownMs: 25_000 };

  it('opens after the threshold of failed requests in a row, and a success in between resets the count', () => {
    let now = 0;
    const breaker = new CircuitBreaker(settings, () => now);
    admitted(breaker.admit()).failed();
    admitted(breaker.admit()).failed();
    admitted(breaker.admit()).succeeded();
    admitted(breaker.admit()).failed();
    admitted(breaker.admit()).failed();
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 2, retry_after_seconds: null });
    admitted(breaker.admit()).failed();
    expect(breaker.snapshot()).toEqual({ state: 'open', consecutive_failures: 3, retry_after_seconds: 10 });
    now = 4_200;
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterSeconds: 6 });
    expect(breaker.snapshot().retry_after_seconds).toBe(6);
  });

  it('lets exactly one trial through when half-open; its success closes the breaker', () => {
    let now = 0;
    const breaker = new CircuitBreaker(settings, () => now);
    for (let i = 0; i < 3; i++) admitted(breaker.admit()).failed();
    now = 10_000;
    expect(breaker.state).toBe('half_open');
    const trial = admitted(breaker.admit());
    expect(breaker.admit()).toEqual({ admitted: false, retryAfterSeconds: 1 });
    expect(breaker.admit().admitted).toBe(false);
    trial.succeeded();
    expect(breaker.snapshot()).toEqual({ state: 'closed', consecutive_failures: 0, retry_after_seconds: null });
    expect(breaker.admit().admitted).toBe(true);
  });

  it('doubles the cool-down after each failed trial, up to the cap, and starts over after a success', () => {
    let now = 0;
    const breaker = new CircuitBreaker(settings, () => now);
    for (let i = 0; i < 3; i++) admitted(breaker.admit()).failed();
    now += 10_000;
    admitted(breaker.admit()).failed();
    expect(breaker.snapshot()).toMatchObject({ state: 'open', retry_after_seconds: 20 });
    now += 20_000;
    admitted(breaker.admit()).failed();
    expect(breaker.snapshot()).toMatchObject({ state: 'open', retry_after_seconds: 25 });
    now += 25_000;
    admitted(breaker.admit()).succeeded();
    for (let i = 0; i < 3; i++) admitted(breaker.admit()).failed();
    expect(breaker.snapshot()).toMatchObject({ state: 'open', retry_after_seconds: 10 });
  });

  it('a trial the client abandons frees the slot for the next request without changing the state', () => {
    let now = 0;
    const breaker = new CircuitBreaker(settings, () => now);
    for (let i = 0; i < 3; i++) admitted(breaker.admit()).failed();
    now = 10_000;
    admitted(breaker.admit()).released();
    expect(breaker.state).toBe('half_open');
    admitted(breaker.admit()).succeeded();
    expect(breaker.state).toBe('closed');
  });

  it('requests admitted before the breaker opened do not move it when they finish late', () => {
    const breaker = new CircuitBreaker(settings, () => 0);
    const slow = admitted(breaker.admit());
    const slowFailure = admitted(breaker.admit());
    for (let i = 0; i < 3; i++) admitted(breaker.admit()).failed();
    slow.succeeded();
    slowFailure.failed();
    expect(breaker.snapshot()).toEqual({ state: 'open', consecutive_failures: 3, retry_after_seconds: 10 });
  });

  it("announces its transitions, and follows another instance's (team mode) without announcing them again", () => {
    let now = 0;
    const announced: BreakerTransition[] = [];
    const opener = new CircuitBreaker(
      settings,
      () => now,
      (transition) => announced.push(transition),
    );
    const follower = new CircuitBreaker(
      settings,
      () => now,
      () => announced.push({ state: 'closed' }),
    );
    const before = admitted(follower.admit());
    for (let i = 0; i < 3; i++) admitted(opener.admit()).failed();
    expect(announced).toEqual([{ state: 'open', remainingMs: 10_000, cooldownMs: 10_000 }]);

    now = 2_000;
    follower.follow({ state: 'open', remainingMs: 8_000, cooldownMs: 10_000 });
    expect(follower.admit()).toEqual({ admitted: false, retryAfterSeconds: 8 });
    // A request admitted before the transition says nothing about the breaker now.
    before.succeeded();
    expect(follower.snapshot().state).toBe('open');

    now = 10_000;
    admitted(opener.admit()).succeeded();
    expect(announced.at(-1)).toEqual({ state: 'closed' });
    follower.follow({ state: 'closed' });
    expect(follower.snapshot()).toEqual({ state: 'closed', consecutive_failures: 0, retry_after_seconds: null });
    expect(announced).toHaveLength(2);
  });
});
