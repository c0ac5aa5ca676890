import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../../store/redis/redis-connection.js';
import { RedisScript } from '../../store/redis/redis-script.js';
import { nextLeaseSize, type LeaseSizing } from '../team/lease-size.js';
import { teamStoreUnavailable } from '../team/team-store-unavailable.js';
import type { RateLimiter, RateVerdict } from './rate-limiter.js';

const WINDOW_MS = 60_000;
/** How long an instance may spend the slots of one lease; they are counted as if all used at its end. */
export const LEASE_MS = 1_000;
/** A lease never takes more than this share of a key's limit, so other instances are not starved of it. */
const LEASE_SHARE = 0.02;

/*
 * Per key, a sorted set of grants (id scored by the millisecond its slots stop counting from, minus the
 * window) and a hash of their slot counts, with the total under '*'. Redis's own clock (TIME) stamps
 * them: the instances' clocks may differ.
 */
const EXPIRE_GRANTS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
local gone = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - window)) do
  gone = gone + tonumber(redis.call('HGET', KEYS[2], id) or '0')
  redis.call('HDEL', KEYS[2], id)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local total = 0
if gone > 0 then total = redis.call('HINCRBY', KEYS[2], '*', -gone) else total = tonumber(redis.call('HGET', KEYS[2], '*') or '0') end
`;

/**
 * ARGV: limit, window ms, grant id, slots wanted, lease ms. Grants what is left of the limit, up to the
 * slots wanted, in one check-and-count: {granted, 0}, or {0, ms until the oldest grant leaves the window}.
 * A grant is scored at its lease's end, so every slot counts for a whole window after its last possible use.
 */
const GRANT = new RedisScript(`${EXPIRE_GRANTS}
local limit = tonumber(ARGV[1])
if total >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.max(1, tonumber(oldest[2]) + window - now)}
end
local granted = math.min(tonumber(ARGV[4]), limit - total)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[5]), ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], granted)
redis.call('HINCRBY', KEYS[2], '*', granted)
redis.call('PEXPIRE', KEYS[1], window + tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[2], window + tonumber(ARGV[5]))
return {granted, 0}
`);

/** ARGV: (unused), window ms, grant id, slots not used. Gives them back to every instance. */
const GIVE_BACK = new RedisScript(`${EXPIRE_GRANTS}
local held = tonumber(redis.call('HGET', KEYS[2], ARGV[3]) or '0')
local back = math.min(held, tonumber(ARGV[4]))
if back <= 0 then return 0 end
if held - back <= 0 then
  redis.call('ZREM', KEYS[1], ARGV[3])
  redis.call('HDEL', KEYS[2], ARGV[3])
else
  redis.call('HSET', KEYS[2], ARGV[3], held - back)
end
redis.call('HINCRBY', KEYS[2], '*', -back)
return back
`);

/** Slots of one grant this instance may still spend, until `endsAt` (its own monotonic clock). */
interface Lease {
  id: string;
  limit: number;
  free: number;
  endsAt: number;
}

/** One key's local state: its lease, the one after it, the next one on its way, and how many slots to ask for. */
interface KeySlots extends LeaseSizing {
  lease: Lease | undefined;
  next: Lease | undefined;
  refill: Promise<RateVerdict> | undefined;
}

/**
 * Team mode's requests-per-minute limits: exact across instances, without a round trip per request.
 * An instance takes a key's slots from Redis a few at a time (a lease, spent within `LEASE_MS`) and
 * admits requests from it locally; the next lease is asked for while half of the current one is left,
 * so a busy key's requests do not wait for Redis. Slots are counted in Redis from the moment they are
 * leased until a window after the lease ends, so no instance can admit more than the limit in any
 * minute; slots left unused are given back. Leases grow (doubling) while a key asks again within a
 * lease's time, halve when one ends with slots left, and start from one after a pause; none holds more than 2 % of the limit, so a
 * key limited to fewer than 100 a minute, or called now and then, takes one slot per request: the
 * exact check of every request as it comes.
 *
 * While Redis is away, limited keys are refused with 503 and Retry-After once their lease is spent
 * (fail closed): the limit is a promise the gateway cannot keep without the shared count.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly keys = new Map<string, KeySlots>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(keyId: string, limitPerMinute: number): RateVerdict | Promise<RateVerdict> {
    let slots = this.keys.get(keyId);
    if (!slots) {
      slots = { lease: undefined, next: undefined, refill: undefined, size: 1, lastAskedAt: -Infinity };
      this.keys.set(keyId, slots);
    }
    const lease = this.usable(keyId, slots, limitPerMinute);
    if (!lease) return this.refill(keyId, slots, limitPerMinute, true);
    lease.free--;
    if (!slots.next && !slots.refill && lease.free < slots.size / 2)
      void this.refill(keyId, slots, limitPerMinute, false).catch(() => undefined);
    return ALLOWED;
  }

  /** Gives every unused slot back (the instance is stopping). */
  async close(): Promise<void> {
    const leases = [...this.keys].flatMap(([keyId, slots]) =>
      [slots.lease, slots.next].flatMap((lease) => (lease ? [[keyId, lease] as const] : [])),
    );
    this.keys.clear();
    await Promise.allSettled(leases.map(([keyId, lease]) => this.giveBack(keyId, lease)));
  }

  /** The key's lease if it has a slot for this request; an ended or outdated one is retired (its unused slots given back). */
  private usable(keyId: string, slots: KeySlots, limit: number): Lease | undefined {
    for (let lease = slots.lease; lease; lease = slots.lease) {
      if (lease.free > 0 && lease.limit === limit && this.now() < lease.endsAt) return lease;
      if (lease.free > 0) {
        slots.size = Math.max(1, Math.floor(slots.size / 2));
        void this.giveBack(keyId, lease).catch(() => undefined);
      }
      slots.lease = slots.next;
      slots.next = undefined;
    }
    return undefined;
  }

  /**
   * Asks Redis for a lease; `forRequest` takes one slot of it for the request waiting. Requests that
   * come while one is on its way wait for it (one round trip per key at a time), unless the key's
   * leases are single slots, which every request asks for itself, at once.
   */
  private refill(keyId: string, slots: KeySlots, limit: number, forRequest: boolean): Promise<RateVerdict> {
    if (slots.refill) return slots.refill.then((verdict) => (verdict.allowed ? this.take(keyId, limit) : verdict));
    const askedAt = this.now();
    const size = nextLeaseSize(slots, askedAt, LEASE_MS, maxLease(limit));
    const id = randomUUID();
    // A single slot for the request asking is spent at once: it counts from now, not from a lease's end.
    const leaseMs = size > 1 || !forRequest ? LEASE_MS : 0;
    const asked = this.grant(keyId, limit, id, size, leaseMs).then((outcome): RateVerdict => {
      if (slots.refill === asked) slots.refill = undefined;
      if (outcome.granted === 0)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(outcome.waitMs / 1000)) };
      // Ends LEASE_MS after it was asked for, so before Redis's score for it: never used later than counted.
      const lease: Lease = { id, limit, free: outcome.granted - (forRequest ? 1 : 0), endsAt: askedAt + LEASE_MS };
      if (lease.free > 0) {
        if (this.usable(keyId, slots, limit)) slots.next = lease;
        else slots.lease = lease;
      }
      return ALLOWED;
    });
    if (size > 1) {
      slots.refill = asked;
      asked.catch(() => {
        if (slots.refill === asked) slots.refill = undefined;
      });
    }
    return asked;
  }

  private async grant(
    keyId: string,
    limit: number,
    id: string,
    slots: number,
    leaseMs: number,
  ): Promise<{ granted: number; waitMs: number }> {
    try {
      const [granted, waitMs] = (await GRANT.run(this.redis.commands, this.redisKeys(keyId), [
        limit,
        WINDOW_MS,
        id,
        slots,
        leaseMs,
      ])) as [number, number];
      return { granted: Number(granted), waitMs: Number(waitMs) };
    } catch (error) {
      throw teamStoreUnavailable('the requests-per-minute limit', error);
    }
  }

  private async giveBack(keyId: string, lease: Lease): Promise<void> {
    const unused = lease.free;
    lease.free = 0;
    if (unused > 0) await GIVE_BACK.run(this.redis.commands, this.redisKeys(keyId), ['', WINDOW_MS, lease.id, unused]);
  }

  private redisKeys(keyId: string): string[] {
    const base = `${this.redis.prefix}rpm-grants:${keyId}`;
    return [base, `${base}:slots`];
  }
}

const ALLOWED: RateVerdict = { allowed: true };

/** The most slots one lease may hold under `limit`: at least one. */
function maxLease(limit: number): number {
  return Math.max(1, Math.floor(limit * LEASE_SHARE));
}
