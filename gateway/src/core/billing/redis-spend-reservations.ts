import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../../store/redis/redis-connection.js';
import { RedisScript } from '../../store/redis/redis-script.js';
import { teamStoreUnavailable } from '../team/team-store-unavailable.js';
import type { CommittedSpend, Reservation, SpendLimit, SpendRefusal, SpendReservations } from './spend-reservations.js';

/** A hold whose instance died (no settle, no release) is dropped after this long. */
const HOLD_TTL_MS = 15 * 60_000;
/** The shared spend counters are read again from the database this often, so a missed update does not last. */
const RESYNC_MS = 60_000;

/*
 * Keys (after the prefix): spend:account (hash: balance, limit, spent), spend:key:<id> (spent by the
 * key), and the holds: held (sorted set of reservation ids by expiry), held:amount and held:key
 * (hashes by reservation id) and held:sum (hash: '*' the account-wide total, <key id> per key).
 * Every change goes through a script, so the sums always equal the holds.
 */
const DROP_EXPIRED = `
local function drop(id)
  local amount = tonumber(redis.call('HGET', KEYS[4], id) or '0')
  local key = redis.call('HGET', KEYS[5], id)
  redis.call('ZREM', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
  redis.call('HDEL', KEYS[5], id)
  redis.call('HINCRBYFLOAT', KEYS[6], '*', -amount)
  if key then
    if tonumber(redis.call('HINCRBYFLOAT', KEYS[6], key, -amount)) <= 1e-9 then redis.call('HDEL', KEYS[6], key) end
  end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do drop(id) end
`;

/** ARGV: reservation id, key id, amount, key limit ('' for none), hold ttl ms. */
const RESERVE = new RedisScript(`${DROP_EXPIRED}
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 0 then return {'sync'} end
local amount = tonumber(ARGV[3])
local account = redis.call('HMGET', KEYS[1], 'balance', 'limit', 'spent')
local held = tonumber(redis.call('HGET', KEYS[6], '*') or '0')
local heldByKey = tonumber(redis.call('HGET', KEYS[6], ARGV[2]) or '0')
local checks = {{'balance', tonumber(account[1]) - held}}
if account[2] ~= '' then table.insert(checks, {'account_limit', tonumber(account[2]) - tonumber(account[3]) - held}) end
if ARGV[4] ~= '' then table.insert(checks, {'key_limit', tonumber(ARGV[4]) - tonumber(redis.call('GET', KEYS[2])) - heldByKey}) end
for _, check in ipairs(checks) do
  local available = check[2]
  local fits
  if amount > 0 then fits = amount <= available + 1e-9 else fits = available > 1e-9 end
  if not fits then return {'refused', check[1], tostring(available)} end
end
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[5]), ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
redis.call('HINCRBYFLOAT', KEYS[6], '*', amount)
redis.call('HINCRBYFLOAT', KEYS[6], ARGV[2], amount)
return {'held'}
`);

/** ARGV: reservation id, actual cost (0 for a release). The cost counts only once the counters exist: else the database has it. */
const SETTLE = new RedisScript(`${DROP_EXPIRED}
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then drop(ARGV[1]) end
local cost = tonumber(ARGV[2])
if cost > 0 then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('HINCRBYFLOAT', KEYS[1], 'balance', -cost)
    redis.call('HINCRBYFLOAT', KEYS[1], 'spent', cost)
  end
  if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('INCRBYFLOAT', KEYS[2], cost) end
end
return 1
`);

/** ARGV: balance, account limit ('' for none), account spent, key spent, resync ms. Counters another instance set first stay. */
const SYNC = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'balance', ARGV[1], 'limit', ARGV[2], 'spent', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5], 'NX')
return 1
`);

/**
 * Team mode's reservations: the holds of every instance and the money spent are counted in Redis, so
 * a request on one instance sees what the others hold and have spent. The counters start from the
 * database (`stored`), are updated by each settlement, and are read from the database again every
 * minute and after the account changes. While Redis is away, paid requests get 503 (fail closed).
 */
export class RedisSpendReservations implements SpendReservations {
  constructor(
    private readonly redis: RedisConnection,
    /** What the database says was spent: read only when the shared counters are missing. */
    private readonly stored: (keyId: string) => Promise<CommittedSpend>,
  ) {}

  private keys(keyId: string): string[] {
    const p = `${this.redis.prefix}spend:`;
    return [`${p}account`, `${p}key:${keyId}`, `${p}held`, `${p}held:amount`, `${p}held:key`, `${p}held:sum`];
  }

  async reserve({ keyId, keyLimit, amount }: { keyId: string; keyLimit: number | null; amount: number }): Promise<Reservation | SpendRefusal> {
    const id = randomUUID();
    const keys = this.keys(keyId);
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const outcome = (await RESERVE.run(this.redis.commands, keys, [id, keyId, amount, keyLimit ?? '', HOLD_TTL_MS])) as string[];
        if (outcome[0] === 'held') return { id, keyId, amount };
        if (outcome[0] === 'refused') return { refused: outcome[1] as SpendLimit, available: Math.max(0, Number(outcome[2])) };
        const spent = await this.stored(keyId);
        await SYNC.run(this.redis.commands, [keys[0], keys[1]], [spent.balance, spent.accountLimit ?? '', spent.accountSpent, spent.keySpent, RESYNC_MS]);
      }
    } catch (error) {
      throw teamStoreUnavailable('the spending limits', error);
    }
    throw teamStoreUnavailable('the spending limits', new Error('the spend counters vanished three times in a row'));
  }

  /**
   * The balance every instance sees: the shared counter, which each settlement on any instance debits
   * (seeded from the database when missing). Undefined while Redis does not answer, so the caller
   * falls back to its own count (an account page stays readable during an outage).
   */
  async sharedBalance(keyId: string): Promise<number | undefined> {
    const keys = this.keys(keyId);
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const balance = await this.redis.commands.hget(keys[0], 'balance');
        if (balance !== null) return Number(balance);
        const spent = await this.stored(keyId);
        await SYNC.run(this.redis.commands, [keys[0], keys[1]], [spent.balance, spent.accountLimit ?? '', spent.accountSpent, spent.keySpent, RESYNC_MS]);
      }
    } catch {
      return undefined;
    }
    return undefined;
  }

  async settle(reservation: Reservation, actualCost: number): Promise<void> {
    const keys = this.keys(reservation.keyId);
    await SETTLE.run(this.redis.commands, keys, [reservation.id, actualCost]);
  }

  async release(reservation: Reservation): Promise<void> {
    await this.settle(reservation, 0);
  }

  /** The account's balance or limit changed in the database: every instance reads the counters from it again. */
  async forgetCommitted(): Promise<void> {
    await this.redis.commands.del(`${this.redis.prefix}spend:account`);
  }
}
