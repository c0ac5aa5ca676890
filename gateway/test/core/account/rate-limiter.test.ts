import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalRateLimiter } from '../../../src/core/account/rate-limiter.js';

afterEach(() => vi.useRealTimers());

describe('LocalRateLimiter', () => {
  it('allows the limit per minute, then says how long to wait', () => {
    let now = 0;
    const limiter = new LocalRateLimiter(() => now);
    expect(limiter.take('k', 2)).toEqual({ allowed: true });
    now = 10_000;
    expect(limiter.take('k', 2)).toEqual({ allowed: true });
    expect(limiter.take('k', 2)).toEqual({ allowed: false, retryAfterSeconds: 50 });
    now = 60_001;
    expect(limiter.take('k', 2)).toEqual({ allowed: true });
  });

  it('counts only the last minute while a busy key keeps sending, and says when the oldest counted request leaves', () => {
    let now = 0;
    const limiter = new LocalRateLimiter(() => now);
    // 3 requests a second for two minutes against a limit of 200: the first 200 pass, then the window
    // slides and about 180 of any minute's requests count.
    const allowed: boolean[] = [];
    for (; now < 120_000; now += 1000 / 3) allowed.push(limiter.take('k', 200).allowed);
    expect(allowed.slice(0, 200).every(Boolean)).toBe(true);
    expect(allowed.slice(200).every(Boolean)).toBe(true);
    for (let i = 0; i < 20; i++) limiter.take('k', 200);
    expect(limiter.take('k', 200)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('does not lock a key out when the wall clock is set back', () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const limiter = new LocalRateLimiter();
    vi.setSystemTime(new Date('2030-01-01T01:00:00Z'));
    expect(limiter.take('k', 1).allowed).toBe(true);
    // The clock was an hour fast and is corrected; a minute later the key may call again.
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    vi.advanceTimersByTime(61_000);
    expect(limiter.take('k', 1)).toEqual({ allowed: true });
  });
});
