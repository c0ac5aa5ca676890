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

/**
 * Settles the requests of one turn of the event loop in one call. KEYS[2] and KEYS[7..] are the keys'
 * spend counters; ARGV: triples of reservation id, actual cost (0 for a release) and the index in KEYS
 * of its key's counter. A cost counts only where the counters exist: else the database has it.
 */
const SETTLE = new RedisScript(`${DROP_EXPIRED}
local accountKnown = redis.call('EXISTS', KEYS[1]) == 1
for i = 1, #ARGV, 3 do
  if redis.call('ZSCORE', KEYS[3], ARGV[i]) then drop(ARGV[i]) end
  local cost = tonumber(ARGV[i + 1])
  if cost > 0 then
    if accountKnown then
      redis.call('HINCRBYFLOAT', KEYS[1], 'balance', -cost)
      redis.call('HINCRBYFLOAT', KEYS[1], 'spent', cost)
    end
    local counter = KEYS[tonumber(ARGV[i + 2])]
    if redis.call('EXISTS', counter) == 1 then redis.call('INCRBYFLOAT', counter, cost) end
  end
end
return 1
`);

/** At most this many settlements share one script call. */
const SETTLEMENTS_PER_CALL = 256;

interface Settlement {
  reservation: Reservation;
  cost: number;
  settled: () => void;
  failed: (error: unknown) => void;
}

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
  /** Settlements of this turn, sent together at its end. */
  private settlements: Settlement[] = [];
  private readonly inFlight = new Set<Promise<void>>();

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

  /**
   * Queued until the end of this turn of the event loop, then sent with the turn's other settlements
   * in one script call: under load, one Redis command for many answers instead of one each.
   */
  settle(reservation: Reservation, actualCost: number): Promise<void> {
    return new Promise((settled, failed) => {
      if (this.settlements.push({ reservation, cost: actualCost, settled, failed }) === 1) setImmediate(() => this.sendSettlements());
    });
  }

  /** Sends the settlements still queued and waits for Redis to take them (before the connection closes). */
  async flush(): Promise<void> {
    this.sendSettlements();
    await Promise.allSettled(this.inFlight);
  }

  private sendSettlements(): void {
    const queued = this.settlements;
    this.settlements = [];
    for (let start = 0; start < queued.length; start += SETTLEMENTS_PER_CALL) this.sendBatch(queued.slice(start, start + SETTLEMENTS_PER_CALL));
  }

  /** KEYS as SETTLE reads them: the account, the first key's counter, the four hold keys, then the other keys' counters. */
  private sendBatch(batch: readonly Settlement[]): void {
    const [account, , ...holds] = this.keys('');
    const keys = [account, '', ...holds];
    const counterIndex = new Map<string, number>();
    const args: (string | number)[] = [];
    for (const { reservation, cost } of batch) {
      let index = counterIndex.get(reservation.keyId);
      if (index === undefined) {
        const counter = this.keys(reservation.keyId)[1];
        if (keys[1] === '') keys[1] = counter;
        else keys.push(counter);
        index = keys[1] === counter ? 2 : keys.length;
        counterIndex.set(reservation.keyId, index);
      }
      args.push(reservation.id, cost, index);
    }
    const sent = SETTLE.run(this.redis.commands, keys, args).then(
      () => batch.forEach(({ settled }) => settled()),
      (error: unknown) => batch.forEach(({ failed }) => failed(error)),
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  async release(reservation: Reservation): Promise<void> {
    await this.settle(reservation, 0);
  }

  /** The account's balance or limit changed in the database: every instance reads the counters from it again. */
  async forgetCommitted(): Promise<void> {
    await this.redis.commands.del(`${this.redis.prefix}spend:account`);
  }
}
