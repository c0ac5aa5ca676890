import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyChanges, ApiKeyRecord, KeyRole, KeysRepository } from '../../store/keys-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';
import { compileGuardrails, type CompiledGuardrails } from '../guardrails/compile-guardrails.js';
import type { GuardrailsConfig } from '../../wire/guardrail-schema.js';

export const KEY_PREFIX = 'sk-sy-';
/** Keys found in the database kept in memory (the Owner makes keys, so this bound is rarely reached); the oldest goes first. */
export const MAX_CACHED_KEYS = 10_000;
/** Presented keys the database does not know, remembered apart; the oldest goes first, and never a known key. */
export const MAX_CACHED_MISSES = 10_000;
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
  guardrails: GuardrailsConfig | null;
}

/** What `KeyService.ownerAccess` found: how the person starting the gateway gets in as an Owner. */
export type OwnerAccess =
  | { kind: 'admin-key' }
  | { kind: 'admin-key-revoked' }
  | { kind: 'generated'; key: string }
  | { kind: 'existing-owners' };

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
    guardrails: record.guardrails === null ? null : (JSON.parse(record.guardrails) as GuardrailsConfig),
  };
}

/** A key's guardrails as stored: compiled first, so a pattern RE2 cannot run is a 422 naming its rule, never a stored key that fails. */
function storedGuardrails(guardrails: GuardrailsConfig | null | undefined): string | null {
  if (!guardrails) return null;
  try {
    compileGuardrails(guardrails);
  } catch (error) {
    throw new GatewayError(422, 'invalid_guardrail', (error as Error).message, { param: 'guardrails' });
  }
  return JSON.stringify(guardrails);
}

/**
 * API keys: stored as SHA-256 hashes (keys are 192-bit random, so a fast hash is safe), looked up
 * through an in-memory cache that every change invalidates, so a revoked key stops at once.
 */
export class KeyService {
  /**
   * Lookups by hash, in two caches: anyone can present any number of wrong keys, so unknown keys are
   * remembered apart and can only push out other unknown keys, never a key that works.
   */
  private readonly known = new Map<string, ApiKeyRecord>();
  private readonly unknown = new Set<string>();
  /**
   * The hash of each key that authenticated, by the key as presented: a SHA-256 on every request was
   * about 2 % of a plain request's CPU. Only keys that work are kept (wrong keys are hashed each time),
   * at most MAX_CACHED_KEYS of them.
   */
  private readonly hashOfAccepted = new Map<string, string>();
  /** Lookups on their way to the database, so one key sent many times at once costs one query. */
  private readonly pending = new Map<string, Promise<ApiKeyRecord | null>>();
  /** Counts changes, so a lookup that raced with one is not cached. */
  private generation = 0;
  private readonly lastTouched = new Map<string, number>();
  /** Each cached record's guardrails, compiled once (a changed key is a new record). */
  private readonly compiled = new WeakMap<ApiKeyRecord, CompiledGuardrails | undefined>();
  /** Short-lived tokens the gateway's own workers (the batch runner) use to act as a key; never stored. */
  private readonly internalTokens = new Map<string, string>();
  /** Internal tokens whose first request was already counted against the key's rate limit (a replay's console call). */
  private readonly admittedTokens = new Set<string>();
  /** Told after every change of a key (team mode: the other instances then forget their cached lookups). */
  private announce: () => void = () => undefined;

  constructor(
    private readonly keys: KeysRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async create(input: {
    name: string;
    role: KeyRole;
    spend_limit?: number | null;
    rpm_limit?: number | null;
    guardrails?: GuardrailsConfig | null;
  }): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateKey();
    const record = this.newRecord(input, key);
    await this.keys.insert(record);
    this.changed();
    return { key, record };
  }

  private newRecord(
    input: {
      name: string;
      role: KeyRole;
      spend_limit?: number | null;
      rpm_limit?: number | null;
      guardrails?: GuardrailsConfig | null;
    },
    key: string,
  ): ApiKeyRecord {
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
      guardrails: storedGuardrails(input.guardrails),
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
    if (await this.keys.insertIfAbsent(this.newRecord({ name: 'Admin (GATEWAY_ADMIN_KEY)', role: 'owner' }, adminKey)))
      this.changed();
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

  /**
   * A token that authenticates as `keyId` until revoked (with the key's own role, limits and revocation).
   * `admitted`: the call that asked for it already took the key's rate-limit slot for the one request
   * the token sends (a replay), so that request does not take a second one.
   */
  issueInternalToken(keyId: string, { admitted = false }: { admitted?: boolean } = {}): string {
    const token = `${KEY_PREFIX}internal-${randomBytes(24).toString('base64url')}`;
    this.internalTokens.set(token, keyId);
    if (admitted) this.admittedTokens.add(token);
    return token;
  }

  revokeInternalToken(token: string): void {
    this.internalTokens.delete(token);
    this.admittedTokens.delete(token);
  }

  /** Whether `presented` is an internal token whose request was counted already; true once, for its first request. */
  takeAdmission(presented: string): boolean {
    return this.admittedTokens.delete(presented);
  }

  /**
   * The live record for a presented key, or undefined when unknown or revoked. A cached key answers
   * in the same turn (no promise on the hot path); only a key not yet cached costs a query.
   */
  authenticate(presented: string): ApiKeyRecord | undefined | Promise<ApiKeyRecord | undefined> {
    const internalFor = this.internalTokens.get(presented);
    if (internalFor)
      return this.keys
        .findById(internalFor)
        .then((record) => (record && record.revoked_at === null ? record : undefined));
    const remembered = this.hashOfAccepted.get(presented);
    const hash = remembered ?? hashKey(presented);
    // A key whose hash is remembered is not remembered again.
    const toRemember = remembered === undefined ? presented : undefined;
    const cached = this.known.get(hash);
    if (cached) return this.accepted(cached, hash, toRemember);
    if (this.unknown.has(hash)) return undefined;
    return this.lookUp(hash).then((record) => this.accepted(record, hash, toRemember));
  }

  private lookUp(hash: string): Promise<ApiKeyRecord | null> {
    const joined = this.pending.get(hash);
    if (joined) return joined;
    const lookup: Promise<ApiKeyRecord | null> = this.query(hash).finally(() => {
      if (this.pending.get(hash) === lookup) this.pending.delete(hash);
    });
    this.pending.set(hash, lookup);
    return lookup;
  }

  private async query(hash: string): Promise<ApiKeyRecord | null> {
    const generation = this.generation;
    const record = (await this.keys.findByHash(hash)) ?? null;
    // A change while the query ran may have made this answer stale: use it, but do not cache it.
    if (generation !== this.generation) return record;
    if (record) {
      if (this.known.size >= MAX_CACHED_KEYS) this.known.delete(this.known.keys().next().value!);
      this.known.set(hash, record);
    } else {
      // An unknown key is remembered too (a client retrying a bad key costs no query), in its own bounded set.
      if (this.unknown.size >= MAX_CACHED_MISSES) this.unknown.delete(this.unknown.values().next().value!);
      this.unknown.add(hash);
    }
    return record;
  }

  private accepted(record: ApiKeyRecord | null, hash: string, presented: string | undefined): ApiKeyRecord | undefined {
    if (!record || record.revoked_at !== null) return undefined;
    if (!timingSafeEqual(Buffer.from(record.hash), Buffer.from(hash))) return undefined;
    if (presented !== undefined) {
      if (this.hashOfAccepted.size >= MAX_CACHED_KEYS)
        this.hashOfAccepted.delete(this.hashOfAccepted.keys().next().value!);
      this.hashOfAccepted.set(presented, hash);
    }
    this.markUsed(record);
    return record;
  }

  announceChangesTo(listener: () => void): void {
    this.announce = listener;
  }

  /** Another instance changed a key: the next lookups read the database again. */
  forgetCached(): void {
    this.generation++;
    this.known.clear();
    this.unknown.clear();
    this.hashOfAccepted.clear();
    // A lookup still running started before the change: later requests must not join it.
    this.pending.clear();
  }

  private changed(): void {
    this.forgetCached();
    this.announce();
  }

  /** How many lookups are cached: keys found (at most MAX_CACHED_KEYS) and unknown keys (at most MAX_CACHED_MISSES). */
  get cachedLookups(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  async get(id: string): Promise<ApiKeyRecord> {
    const record = await this.keys.findById(id);
    if (!record)
      throw new GatewayError(404, 'key_not_found', `No API key with id "${id}". List keys with GET /account/keys.`, {
        param: 'id',
      });
    return record;
  }

  async update(
    id: string,
    { guardrails, ...changes }: Omit<ApiKeyChanges, 'guardrails'> & { guardrails?: GuardrailsConfig | null },
  ): Promise<ApiKeyRecord> {
    await this.get(id);
    await this.keys.update(
      id,
      guardrails === undefined ? changes : { ...changes, guardrails: storedGuardrails(guardrails) },
    );
    this.changed();
    return this.get(id);
  }

  /** The key's guardrails, ready to run; undefined when it has none. */
  guardrailsOf(record: ApiKeyRecord): CompiledGuardrails | undefined {
    if (record.guardrails === null) return undefined;
    if (!this.compiled.has(record))
      this.compiled.set(record, compileGuardrails(JSON.parse(record.guardrails) as GuardrailsConfig));
    return this.compiled.get(record);
  }

  async revoke(id: string, actingKeyId: string): Promise<ApiKeyRecord> {
    const record = await this.get(id);
    const owners = record.role === 'owner' ? await this.keys.countOwners() : Infinity;
    if (record.role === 'owner' && record.revoked_at === null && owners <= 1) {
      throw new GatewayError(
        409,
        'last_owner_key',
        'This is the last Owner key; create another Owner key before revoking it.',
        { param: 'id' },
      );
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
