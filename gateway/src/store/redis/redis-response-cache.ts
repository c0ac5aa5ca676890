import type { RedisConnection } from './redis-connection.js';
import { RedisScript } from './redis-script.js';
import {
  entryBytes,
  EVICTION_HEADROOM,
  fitsCache,
  type CacheCandidate,
  type CacheEntryRecord,
  type CacheLimits,
  type ResponseCacheStore,
} from '../response-cache-store.js';

/** Shared by the scripts: an entry's bookkeeping (LRU and expiry orders, its size) goes with it. */
const DROP = `
local prefix = ARGV[1]
local lru, expiry, sizes, total = prefix .. 'lru', prefix .. 'expiry', prefix .. 'sizes', prefix .. 'total'
local function drop(key)
  local size = redis.call('HGET', sizes, key)
  if size then
    redis.call('DECRBY', total, size)
    redis.call('HDEL', sizes, key)
  end
  redis.call('DEL', prefix .. 'e:' .. key)
  redis.call('ZREM', lru, key)
  redis.call('ZREM', expiry, key)
end
`;

/** ARGV: prefix, key, now. The entry's fields, its use noted; nil (and its bookkeeping gone) when it expired. */
const GET = new RedisScript(`${DROP}
local key, now = ARGV[2], tonumber(ARGV[3])
local fields = redis.call('HMGET', prefix .. 'e:' .. key, 'context', 'embedding', 'answer', 'created', 'expires')
if not fields[3] or tonumber(fields[5]) <= now then
  drop(key)
  return nil
end
redis.call('ZADD', lru, now, key)
return fields
`);

/** ARGV: prefix, context, now. The live semantic entries of a context as key, embedding pairs; gone ones leave the set. */
const CANDIDATES = new RedisScript(`
local prefix, context, now = ARGV[1], ARGV[2], tonumber(ARGV[3])
local set = prefix .. 'c:' .. context
local found = {}
for _, key in ipairs(redis.call('SMEMBERS', set)) do
  local fields = redis.call('HMGET', prefix .. 'e:' .. key, 'embedding', 'expires')
  if fields[1] and tonumber(fields[2]) > now then
    table.insert(found, key)
    table.insert(found, fields[1])
  else
    redis.call('SREM', set, key)
  end
end
return found
`);

/**
 * ARGV: prefix, key, now, context, embedding ('' for none), answer, created, expires, bytes,
 * max entries, max bytes, entries kept, bytes kept. Stores the entry, drops the expired ones, then
 * the least recently used until the cache is back under its limits (with headroom).
 */
const PUT = new RedisScript(`${DROP}
local key, now = ARGV[2], tonumber(ARGV[3])
local context, embedding, answer, created, expires = ARGV[4], ARGV[5], ARGV[6], ARGV[7], tonumber(ARGV[8])
local bytes = tonumber(ARGV[9])
local maxEntries, maxBytes, keepEntries, keepBytes = tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13])
drop(key)
local entry = prefix .. 'e:' .. key
redis.call('HSET', entry, 'context', context, 'embedding', embedding, 'answer', answer, 'created', created, 'expires', expires)
redis.call('PEXPIRE', entry, expires - now)
redis.call('ZADD', lru, now, key)
redis.call('ZADD', expiry, expires, key)
redis.call('HSET', sizes, key, bytes)
redis.call('INCRBY', total, bytes)
if embedding ~= '' then
  local set = prefix .. 'c:' .. context
  redis.call('SADD', set, key)
  if redis.call('PTTL', set) < expires - now then redis.call('PEXPIRE', set, expires - now) end
end
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', expiry, '-inf', now)) do drop(gone) end
local count = redis.call('ZCARD', lru)
local size = tonumber(redis.call('GET', total) or '0')
if count > maxEntries or size > maxBytes then
  while count > keepEntries or size > keepBytes do
    local oldest = redis.call('ZRANGE', lru, 0, 0)
    if #oldest == 0 then break end
    size = size - tonumber(redis.call('HGET', sizes, oldest[1]) or '0')
    count = count - 1
    drop(oldest[1])
  end
end
return count
`);

/**
 * The response cache of team mode, shared by every instance under `<prefix>cache:`: each entry a
 * hash that expires by itself, an LRU sorted set by last use, an expiry sorted set, the sizes and
 * their total, and per context the set of its semantic entries. Every change is one Lua script, so
 * instances never see half an entry or a count that is off.
 */
export class RedisResponseCache implements ResponseCacheStore {
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisConnection,
    private readonly limits: CacheLimits,
  ) {
    this.prefix = `${redis.prefix}cache:`;
  }

  async get(key: string, now: number): Promise<CacheEntryRecord | undefined> {
    const fields = (await GET.run(this.redis.commands, [], [this.prefix, key, now])) as (string | null)[] | null;
    if (!fields) return undefined;
    const [context, embedding, answer, created, expires] = fields;
    return {
      key,
      context: context!,
      embedding: embedding ? embedding : null,
      answer: answer!,
      createdAt: Number(created),
      expiresAt: Number(expires),
    };
  }

  async candidates(context: string, now: number): Promise<CacheCandidate[]> {
    const flat = (await CANDIDATES.run(this.redis.commands, [], [this.prefix, context, now])) as string[];
    const found: CacheCandidate[] = [];
    for (let index = 0; index < flat.length; index += 2) found.push({ key: flat[index]!, embedding: flat[index + 1]! });
    return found;
  }

  async put(entry: CacheEntryRecord, now: number): Promise<void> {
    const bytes = entryBytes(entry);
    if (!fitsCache(bytes, this.limits)) return;
    await PUT.run(
      this.redis.commands,
      [],
      [
        this.prefix,
        entry.key,
        now,
        entry.context,
        entry.embedding ?? '',
        entry.answer,
        entry.createdAt,
        entry.expiresAt,
        bytes,
        this.limits.maxEntries,
        this.limits.maxBytes,
        Math.floor(this.limits.maxEntries * EVICTION_HEADROOM),
        Math.floor(this.limits.maxBytes * EVICTION_HEADROOM),
      ],
    );
  }
}
