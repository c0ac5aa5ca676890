import { RedisScript } from '../../store/redis/redis-script.js';

// The Lua scripts of team mode's spend reservations (redis-spend-reservations.ts): every change to the shared counters and holds.

/** A lease is granted only when it is at most this share of what is left under every limit. */
export const LEASE_SHARE = 0.02;

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

/**
 * ARGV: reservation id, key id, amount, key limit ('' for none), hold ttl ms, amount wanted. Holds the
 * amount wanted (a lease) when it is at most LEASE_SHARE of what is left under every limit, else the
 * amount: near a limit every request is held on its own. Answers {'held', amount held}.
 */
export const RESERVE = new RedisScript(`${DROP_EXPIRED}
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
local hold = amount
local wanted = tonumber(ARGV[6])
if wanted > amount then
  local least = checks[1][2]
  for _, check in ipairs(checks) do least = math.min(least, check[2]) end
  if wanted <= least * ${LEASE_SHARE} then hold = wanted end
end
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[5]), ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], hold)
redis.call('HSET', KEYS[5], ARGV[1], ARGV[2])
redis.call('HINCRBYFLOAT', KEYS[6], '*', hold)
redis.call('HINCRBYFLOAT', KEYS[6], ARGV[2], hold)
return {'held', tostring(hold)}
`);

/**
 * Settles the requests of one turn of the event loop in one call. KEYS[2] and KEYS[7..] are the keys'
 * spend counters; ARGV: quadruples of hold id, actual cost (0 for a release), the index in KEYS of its
 * key's counter, and the part of a lease it held ('' for a whole hold, which goes). A cost counts only
 * where the counters exist: else the database has it.
 */
export const SETTLE = new RedisScript(`${DROP_EXPIRED}
local accountKnown = redis.call('EXISTS', KEYS[1]) == 1
for i = 1, #ARGV, 4 do
  if redis.call('ZSCORE', KEYS[3], ARGV[i]) then
    local held = tonumber(redis.call('HGET', KEYS[4], ARGV[i]) or '0')
    local part = held
    if ARGV[i + 3] ~= '' then part = math.min(held, tonumber(ARGV[i + 3])) end
    if held - part <= 1e-9 then
      drop(ARGV[i])
    else
      local key = redis.call('HGET', KEYS[5], ARGV[i])
      redis.call('HINCRBYFLOAT', KEYS[4], ARGV[i], -part)
      redis.call('HINCRBYFLOAT', KEYS[6], '*', -part)
      if key then redis.call('HINCRBYFLOAT', KEYS[6], key, -part) end
    end
  end
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

/** ARGV: balance, account limit ('' for none), account spent, key spent, resync ms. Counters another instance set first stay. */
export const SYNC = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'balance', ARGV[1], 'limit', ARGV[2], 'spent', ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[5], 'NX')
return 1
`);
