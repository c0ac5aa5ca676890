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
  /** Per key, its stamps from `head` on (the ones before it have left the window). */
  private readonly windows = new Map<string, { stamps: number[]; head: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  take(keyId: string, limitPerMinute: number): RateVerdict {
    const now = this.now();
    const windowStart = now - 60_000;
    let window = this.windows.get(keyId);
    if (!window) {
      window = { stamps: [], head: 0 };
      this.windows.set(keyId, window);
    }
    const { stamps } = window;
    while (window.head < stamps.length && stamps[window.head] <= windowStart) window.head++;
    // Expired stamps are dropped in bulk once they are half the array: a splice per request moves a
    // busy key's whole minute of stamps every time.
    if (window.head > 0 && window.head >= stamps.length / 2) {
      stamps.splice(0, window.head);
      window.head = 0;
    }
    if (stamps.length - window.head >= limitPerMinute) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((stamps[window.head] + 60_000 - now) / 1000)) };
    }
    stamps.push(now);
    return { allowed: true };
  }
}
