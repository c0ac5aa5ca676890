import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyChanges, ApiKeyRecord, KeyRole, KeysRepository } from '../../store/keys-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';

export const KEY_PREFIX = 'sk-sy-';
/** Lookups (known and unknown keys) kept in memory; the oldest goes first. */
export const MAX_CACHED_LOOKUPS = 10_000;
const SHOWN_CHARACTERS = 10;

export interface PublicKey {
  id: string;
  object: 'api_key';
  name: string;
  role: KeyRole;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
  revoked: boolean;
  spend_limit: number | null;
  rpm_limit: number | null;
}

/** What `KeyService.ownerAccess` found: how the person starting the gateway gets in as an Owner. */
export type OwnerAccess = { kind: 'admin-key' } | { kind: 'admin-key-revoked' } | { kind: 'generated'; key: string } | { kind: 'existing-owners' };

export function hashKey(key: string): string {
  // One-shot hash: no Hash object per request (0.5 -> 0.2 µs).
  return hash('sha256', key, 'hex');
}

/** The beginning of a key with an ellipsis: all the gateway ever shows of a key. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, SHOWN_CHARACTERS)}…`;
}

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

export function toPublicKey(record: ApiKeyRecord): PublicKey {
  return {
    id: record.id,
    object: 'api_key',
    name: record.name,
    role: record.role,
    prefix: record.prefix,
    created_at: Math.floor(record.created_at / 1000),
    last_used_at: record.last_used_at === null ? null : Math.floor(record.last_used_at / 1000),
    revoked: record.revoked_at !== null,
    spend_limit: record.spend_limit,
    rpm_limit: record.rpm_limit,
  };
}

/**
 * API keys: stored as SHA-256 hashes (keys are 192-bit random, so a fast hash is safe), looked up
 * through an in-memory cache that every change invalidates, so a revoked key stops at once.
 */
export class KeyService {
  private readonly cache = new Map<string, ApiKeyRecord | null>();
  /** Counts changes, so a lookup that raced with one is not cached. */
  private generation = 0;
  private readonly lastTouched = new Map<string, number>();
  /** Short-lived tokens the gateway's own workers (the batch runner) use to act as a key; never stored. */
  private readonly internalTokens = new Map<string, string>();
  /** Told after every change of a key (team mode: the other instances then forget their cached lookups). */
  private announce: () => void = () => undefined;

  constructor(
    private readonly keys: KeysRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async create(input: { name: string; role: KeyRole; spend_limit?: number | null; rpm_limit?: number | null }): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateKey();
    const record = this.newRecord(input, key);
    await this.keys.insert(record);
    this.changed();
    return { key, record };
  }

  private newRecord(input: { name: string; role: KeyRole; spend_limit?: number | null; rpm_limit?: number | null }, key: string): ApiKeyRecord {
    return {
      id: newId('key_'),
      name: input.name,
      role: input.role,
      prefix: displayPrefix(key),
      hash: hashKey(key),
      created_at: this.now(),
      last_used_at: null,
      revoked_at: null,
      spend_limit: input.spend_limit ?? null,
      rpm_limit: input.rpm_limit ?? null,
    };
  }

  /**
   * Adds the configured admin key (GATEWAY_ADMIN_KEY, the desktop app's console key) when absent.
   * A generated key is made only by `ownerAccess`, once the gateway listens, so a start that fails
   * never leaves an Owner key nobody has seen.
   */
  async ensureAdminKey(adminKey: string | undefined): Promise<void> {
    if (!adminKey || (await this.keys.findByHash(hashKey(adminKey)))) return;
    // Instances starting together on a fresh database race to add it: one row, whoever comes first.
    if (await this.keys.insertIfAbsent(this.newRecord({ name: 'Admin (GATEWAY_ADMIN_KEY)', role: 'owner' }, adminKey))) this.changed();
  }

  /**
   * How the person starting the gateway gets in as an Owner: the configured key (unless revoked),
   * a key generated now when the database has no Owner key (the caller prints it), or the Owner
   * keys the database already holds.
   */
  async ownerAccess(adminKey: string | undefined): Promise<OwnerAccess> {
    if (adminKey) {
      const record = await this.keys.findByHash(hashKey(adminKey));
      return record && record.revoked_at === null ? { kind: 'admin-key' } : { kind: 'admin-key-revoked' };
    }
    if ((await this.keys.countOwners()) > 0) return { kind: 'existing-owners' };
    return { kind: 'generated', key: (await this.create({ name: 'Bootstrap owner', role: 'owner' })).key };
  }

  /** A token that authenticates as `keyId` until revoked (with the key's own role, limits and revocation). */
  issueInternalToken(keyId: string): string {
    const token = `${KEY_PREFIX}internal-${randomBytes(24).toString('base64url')}`;
    this.internalTokens.set(token, keyId);
    return token;
  }

  revokeInternalToken(token: string): void {
    this.internalTokens.delete(token);
  }

  /**
   * The live record for a presented key, or undefined when unknown or revoked. A cached key answers
   * in the same turn (no promise on the hot path); only a key not yet cached costs a query.
   */
  authenticate(presented: string): ApiKeyRecord | undefined | Promise<ApiKeyRecord | undefined> {
    const internalFor = this.internalTokens.get(presented);
    if (internalFor) return this.keys.findById(internalFor).then((record) => (record && record.revoked_at === null ? record : undefined));
    const hash = hashKey(presented);
    const cached = this.cache.get(hash);
    return cached === undefined ? this.lookUp(hash) : this.accepted(cached, hash);
  }

  private async lookUp(hash: string): Promise<ApiKeyRecord | undefined> {
    const generation = this.generation;
    const record = (await this.keys.findByHash(hash)) ?? null;
    // A change while the query ran may have made this answer stale: use it, but do not cache it.
    if (generation !== this.generation) return this.accepted(record, hash);
    // Unknown keys are cached too (a client retrying a bad key costs no query), so the cache is
    // bounded: otherwise every distinct wrong key sent to the gateway would stay in memory.
    if (this.cache.size >= MAX_CACHED_LOOKUPS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hash, record);
    return this.accepted(record, hash);
  }

  private accepted(record: ApiKeyRecord | null, hash: string): ApiKeyRecord | undefined {
    if (!record || record.revoked_at !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(record.hash), Buffer.from(hash))) return undefined;
    this.markUsed(record);
    return record;
  }

  announceChangesTo(listener: () => void): void {
    this.announce = listener;
  }

  /** Another instance changed a key: the next lookups read the database again. */
  forgetCached(): void {
    this.generation++;
    this.cache.clear();
  }

  private changed(): void {
    this.generation++;
    this.cache.clear();
    this.announce();
  }

  /** How many key lookups are cached (bounded by MAX_CACHED_LOOKUPS). */
  get cachedLookups(): number {
    return this.cache.size;
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  async get(id: string): Promise<ApiKeyRecord> {
    const record = await this.keys.findById(id);
    if (!record) throw new GatewayError(404, 'key_not_found', `No API key with id "${id}". List keys with GET /account/keys.`, { param: 'id' });
    return record;
  }

  async update(id: string, changes: ApiKeyChanges): Promise<ApiKeyRecord> {
    await this.get(id);
    await this.keys.update(id, changes);
    this.changed();
    return this.get(id);
  }

  async revoke(id: string, actingKeyId: string): Promise<ApiKeyRecord> {
    const record = await this.get(id);
    const owners = record.role === 'owner' ? await this.keys.countOwners() : Infinity;
    if (record.role === 'owner' && record.revoked_at === null && owners <= 1) {
      throw new GatewayError(409, 'last_owner_key', 'This is the last Owner key; create another Owner key before revoking it.', { param: 'id' });
    }
    if (id === actingKeyId && record.role === 'owner' && owners <= 1) {
      throw new GatewayError(409, 'last_owner_key', 'You cannot revoke the only Owner key you are using.');
    }
    await this.keys.revoke(id, this.now());
    this.changed();
    return this.get(id);
  }

  /** last_used_at is written at most once a minute per key, off the hot path's critical write load. */
  private markUsed(record: ApiKeyRecord): void {
    const now = this.now();
    const previous = this.lastTouched.get(record.id) ?? 0;
    if (now - previous < 60_000) return;
    this.lastTouched.set(record.id, now);
    record.last_used_at = now;
    // Best effort, off the request's path: a lost touch only makes last_used_at a minute older.
    void this.keys.touch(record.id, now).catch(() => undefined);
  }
}
