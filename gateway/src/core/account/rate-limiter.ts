export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Per-key requests-per-minute limits: in memory (one gateway) or in Redis (team mode, exact across instances). */
export interface RateLimiter {
  take(keyId: string, limitPerMinute: number): RateVerdict | Promise<RateVerdict>;
}

/**
 * Requests-per-minute limits, a sliding window per key kept in memory (timestamps of the last
 * minute's requests). Returns how long to wait when the limit is reached. A key's window outlives a
 * change of its limit: the new limit applies to the requests already made this minute.
 *
 * Time is monotonic: with the wall clock, setting it back (NTP, a laptop waking up, a user fixing
 * the time) would leave "future" stamps in the window and lock a key out for as long as the jump.
 */
export class LocalRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  take(keyId: string, limitPerMinute: number): RateVerdict {
    const now = this.now();
    const windowStart = now - 60_000;
    let stamps = this.windows.get(keyId);
    if (!stamps) {
      stamps = [];
      this.windows.set(keyId, stamps);
    }
    let expired = 0;
    while (expired < stamps.length && stamps[expired] <= windowStart) expired++;
    if (expired > 0) stamps.splice(0, expired);
    if (stamps.length >= limitPerMinute) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((stamps[0] + 60_000 - now) / 1000)) };
    }
    stamps.push(now);
    return { allowed: true };
  }
}
