import { describe, expect, it } from 'vitest';
import { LEASE_MS, RedisRateLimiter } from '../../../src/core/account/redis-rate-limiter.js';
import type { RateVerdict } from '../../../src/core/account/rate-limiter.js';
import { testRedisConnections } from '../../support/test-redis.js';

/** `count` instances' limiters on one Redis prefix, each with its own connection; every script call counted. */
async function instances(count: number) {
  const { connections, scriptCalls } = await testRedisConnections(count);
  return { limiters: connections.map((redis) => new RedisRateLimiter(redis)), connections, scriptCalls };
}

const allowedCount = (verdicts: RateVerdict[]) => verdicts.filter((verdict) => verdict.allowed).length;

describe('RedisRateLimiter (team mode, real Redis)', () => {
  it('admits a busy key from leases: a few round trips for a thousand requests, most answered in the same turn', async () => {
    const { limiters, scriptCalls } = await instances(1);
    const [limiter] = limiters;
    let immediate = 0;
    const verdicts: RateVerdict[] = [];
    for (let i = 0; i < 1000; i++) {
      const verdict = limiter.take('busy', 1_000_000);
      if (!(verdict instanceof Promise)) immediate++;
      verdicts.push(await verdict);
    }
    expect(allowedCount(verdicts)).toBe(1000);
    expect(immediate).toBeGreaterThan(900);
    expect(scriptCalls()).toBeLessThan(40);
  });

  it('never lets instances together admit more than the limit in a minute, and gives unused slots back when they stop', async () => {
    const { limiters, connections } = await instances(3);
    // 5,000 a minute: leases of up to 100 slots. Three instances ask 2,000 times each, at once.
    const rounds = await Promise.all(
      limiters.map(async (limiter) => {
        const verdicts: RateVerdict[] = [];
        for (let i = 0; i < 2000; i++) verdicts.push(await limiter.take('shared', 5000));
        return allowedCount(verdicts);
      }),
    );
    const admitted = rounds.reduce((sum, n) => sum + n, 0);
    expect(admitted).toBeLessThanOrEqual(5000);
    // What a stopping instance still held goes back: a newcomer gets exactly the rest of the minute's limit.
    await Promise.all(limiters.map((limiter) => limiter.close()));
    const newcomer = new RedisRateLimiter(connections[0]);
    const more: RateVerdict[] = [];
    for (let i = 0; i < 6000; i++) {
      const verdict = await newcomer.take('shared', 5000);
      more.push(verdict);
      if (!verdict.allowed) break;
    }
    expect(admitted + allowedCount(more)).toBe(5000);
    const refused = more.at(-1)!;
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
  });

  it('checks each request of a key limited to fewer than 100 a minute in Redis, at once, exactly', async () => {
    const { limiters, scriptCalls } = await instances(2);
    const verdicts = await Promise.all(Array.from({ length: 90 }, (_, i) => limiters[i % 2].take('small', 60)));
    expect(allowedCount(verdicts)).toBe(60);
    expect(scriptCalls()).toBe(90);
    // Each counted from the moment it was checked: the window frees a minute later, not a lease's time after.
    const refused = verdicts.find((verdict) => !verdict.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });

  it('retires a lease when the key limit changes, and counts the new limit against what was admitted', async () => {
    const { limiters } = await instances(1);
    const [limiter] = limiters;
    for (let i = 0; i < 300; i++) expect((await limiter.take('changing', 100_000)).allowed).toBe(true);
    // Lowered to 300 a minute: the 300 already admitted fill it; the old lease's slots do not let more in.
    expect(await limiter.take('changing', 300)).toMatchObject({ allowed: false });
  });

  it('stops admitting from a lease once its time is over, however many slots it has left', async () => {
    const { limiters, scriptCalls } = await instances(1);
    const [limiter] = limiters;
    for (let i = 0; i < 50; i++) await limiter.take('paused', 1_000_000);
    const before = scriptCalls();
    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 50));
    const verdict = limiter.take('paused', 1_000_000);
    expect(verdict).toBeInstanceOf(Promise);
    expect(await verdict).toEqual({ allowed: true });
    expect(scriptCalls()).toBeGreaterThan(before);
  });
});
