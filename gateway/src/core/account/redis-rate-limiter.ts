import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../../store/redis/redis-connection.js';
import { RedisScript } from '../../store/redis/redis-script.js';
import { teamStoreUnavailable } from '../team/team-store-unavailable.js';
import type { RateLimiter, RateVerdict } from './rate-limiter.js';

const WINDOW_MS = 60_000;

/**
 * A sliding window log in a sorted set per key, checked and written in one script, so the check and
 * the count are atomic across every instance. Redis's own clock (TIME) stamps the requests: the
 * instances' clocks may differ.
 */
const SLIDING_WINDOW = new RedisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tonumber(oldest[2]) + window - now
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return -1
`);

/**
 * Team mode's requests-per-minute limits: exact across instances. While Redis is away, limited keys
 * are refused with 503 and Retry-After (fail closed): the limit is a promise the gateway cannot keep
 * without the shared count.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: RedisConnection) {}

  async take(keyId: string, limitPerMinute: number): Promise<RateVerdict> {
    let waitMs: number;
    try {
      waitMs = Number(await SLIDING_WINDOW.run(this.redis.commands, [`${this.redis.prefix}rpm:${keyId}`], [limitPerMinute, WINDOW_MS, randomUUID()]));
    } catch (error) {
      throw teamStoreUnavailable('the requests-per-minute limit', error);
    }
    if (waitMs < 0) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}
