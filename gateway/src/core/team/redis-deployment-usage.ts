import type { RedisConnection } from '../../store/redis/redis-connection.js';
import { RedisScript } from '../../store/redis/redis-script.js';
import { minuteOf, type DeploymentUsage, type MinuteUsage } from '../routing/deployment-usage.js';

/** A minute's counters outlive it by another minute, for instances whose clocks lag. */
const KEEP_MS = 120_000;

/**
 * ARGV: rpm, tpm (0: no limit). Counts one request in the deployment's minute unless it is at
 * either limit: {1 or 0, requests, tokens}, in one check-and-count for every instance.
 */
const CLAIM = new RedisScript(`
local requests = tonumber(redis.call('HGET', KEYS[1], 'r') or '0')
local tokens = tonumber(redis.call('HGET', KEYS[1], 't') or '0')
local rpm = tonumber(ARGV[1])
local tpm = tonumber(ARGV[2])
if (rpm > 0 and requests >= rpm) or (tpm > 0 and tokens >= tpm) then return {0, requests, tokens} end
requests = redis.call('HINCRBY', KEYS[1], 'r', 1)
redis.call('PEXPIRE', KEYS[1], ${KEEP_MS})
return {1, requests, tokens}
`);

/**
 * Team mode's deployment counters: each request is counted in Redis (one script call, pipelined
 * with the request's other Redis commands) so rpm, tpm and usage-based routing see every instance's
 * traffic; `used` answers from the counts the last claim brought back. When Redis does not answer,
 * requests are let through and counted here alone (reported once per outage).
 */
export class RedisDeploymentUsage implements DeploymentUsage {
  private readonly seen = new Map<string, MinuteUsage & { minute: number }>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly lost: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  used(key: string): MinuteUsage {
    return this.current(key);
  }

  async claim(key: string, rpm: number | undefined, tpm: number | undefined): Promise<boolean> {
    const count = this.current(key);
    try {
      const [granted, requests, tokens] = (await CLAIM.run(
        this.redis.commands,
        [this.redisKey(count.minute, key)],
        [rpm ?? 0, tpm ?? 0],
      )) as [number, number, number];
      count.requests = requests;
      count.tokens = Math.max(count.tokens, tokens);
      return granted === 1;
    } catch (error) {
      this.lost(error);
      count.requests++;
      return true;
    }
  }

  addTokens(key: string, tokens: number): void {
    const count = this.current(key);
    count.tokens += tokens;
    const redisKey = this.redisKey(count.minute, key);
    this.redis.commands
      .multi()
      .hincrby(redisKey, 't', tokens)
      .pexpire(redisKey, KEEP_MS)
      .exec()
      .catch((error: unknown) => this.lost(error));
  }

  private current(key: string): MinuteUsage & { minute: number } {
    const minute = minuteOf(this.now());
    let count = this.seen.get(key);
    if (!count || count.minute !== minute) {
      count = { minute, requests: 0, tokens: 0 };
      this.seen.set(key, count);
    }
    return count;
  }

  private redisKey(minute: number, key: string): string {
    return `${this.redis.prefix}deployment:${minute}:${key}`;
  }
}
