import type { RequestLogEntry } from '../../store/request-log-repository.js';

export type { RequestLogEntry };

type Listener = (entry: RequestLogEntry) => void;

export interface RequestLogFilter {
  key_prefix?: string;
  model?: string;
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string;
  /** A part of the path. */
  path?: string;
  /** Leave out the console's own calls (client `console`). */
  exclude_console?: boolean;
  /** The requests of one OpenTelemetry trace (32 hex digits). */
  trace_id?: string;
}

/** The list's order: newest first (the default), or slowest first. */
export type RequestLogOrder = 'time_desc' | 'latency_desc';

export const CONSOLE_CLIENT = 'console';

/** An entry as lists and the live feed carry it: its spans are for its detail only. */
export function withoutSpans(entry: RequestLogEntry): RequestLogEntry {
  if (entry.spans === undefined) return entry;
  const { spans: _spans, ...summary } = entry;
  return summary;
}

export function matchesFilter(entry: RequestLogEntry, filter: RequestLogFilter): boolean {
  if (filter.exclude_console && entry.client === CONSOLE_CLIENT) return false;
  if (filter.key_prefix && entry.key_prefix !== filter.key_prefix) return false;
  if (filter.model && entry.model !== filter.model) return false;
  if (filter.path && !entry.path.includes(filter.path)) return false;
  if (filter.trace_id && entry.trace_id !== filter.trace_id.toLowerCase()) return false;
  if (filter.status) {
    const classMatch = /^([1-5])xx$/i.exec(filter.status);
    if (classMatch ? Math.floor(entry.status / 100) !== Number(classMatch[1]) : String(entry.status) !== filter.status)
      return false;
  }
  return true;
}

/** Where the log is kept across restarts (the store's request_log table). */
export interface RequestLogStore {
  insertMany(entries: readonly RequestLogEntry[]): Promise<void>;
  recent(limit: number): Promise<RequestLogEntry[]>;
  get(id: string): Promise<RequestLogEntry | undefined>;
  prune(before: number, keep: number): Promise<void>;
}

export interface RequestLogPersistence {
  store: RequestLogStore;
  /** A function when the console can change it while the gateway runs. */
  retentionDays: number | (() => number);
  /** Entries are written in batches this often (ms), off the request's path. */
  flushMs?: number;
  /** Where a failed write is reported (its entries wait for the next flush); default a process warning. */
  onWriteError?: (error: unknown) => void;
}

const PRUNE_EVERY_MS = 60_000;
/** A request at least this slow keeps its spans in the store (see `spansAreStored`). */
export const STORED_SPANS_MIN_LATENCY_MS = 100;
/** How many of the newest quick plain successes keep their spans in memory (see `add`). */
export const QUICK_SPANS_KEPT = 100;

/** Every stream marks its first and last token: only the other events (a retry, a fallback, ...) make a request notable. */
const isNotable = (event: { name: string }) => event.name !== 'first token' && event.name !== 'last token';

/**
 * Whether the store keeps the entry's spans: when the request failed, was slow, or had a stage that
 * failed or an event (a retry, a fallback, a circuit refusal; not a stream's token marks). A quick plain success keeps them in
 * memory only. Its few spans were most of the stored entry's bytes, and writing them for every
 * request cost far more than the 3 % of CPU traces may add to a request (docs/observability.md).
 */
function spansAreStored(entry: RequestLogEntry, spans: NonNullable<RequestLogEntry['spans']>): boolean {
  return (
    entry.status >= 400 ||
    entry.latency_ms >= STORED_SPANS_MIN_LATENCY_MS ||
    spans.some((span) => span.status === 'error' || span.events?.some(isNotable))
  );
}

/** An entry as the store keeps it: with its spans only when `spansAreStored`. */
export function storedForm(entry: RequestLogEntry): RequestLogEntry {
  const spans = entry.spans;
  if (spans === undefined || spansAreStored(entry, spans)) return entry;
  // A copy whose spans are left out of its JSON: spreading copies the entry's shape at once, where
  // leaving a field out with a rest pattern copies field by field.
  return { ...entry, spans: undefined };
}
/** How long the detail of a peer's entry waits for the peer's write (its batches go out every 250 ms by default). */
const PEER_WRITE_WAITS_MS = [50, 100, 200, 400, 800, 1500] as const;
const DAY_MS = 86_400_000;
/** Requests without an authenticated key kept for the live list (newest only; never stored or shared). */
export const KEYLESS_ENTRIES = 100;

/**
 * The last N requests, for the console's live request log; subscribers get each new entry. With a store,
 * entries are written in small batches and the newest N are read back at start, so a restart keeps the log;
 * the store keeps `retentionDays` (and at most ten times N rows).
 */
export class RequestLog {
  private readonly entries: RequestLogEntry[] = [];
  /**
   * Requests that presented no valid key, apart: anyone can send them at any rate, so they must never
   * push the Owner's entries out of the log (or out of the store, which a restart reads back).
   */
  private readonly keyless: RequestLogEntry[] = [];
  private readonly listeners = new Set<Listener>();
  private pending: RequestLogEntry[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastPrune = 0;
  /** Writes run one after another; the last one, for `flush` to wait on. */
  private writing: Promise<void> = Promise.resolve();
  /** Team mode: where this instance's entries go for the other instances' feeds. */
  private share: ((entry: RequestLogEntry) => void) | undefined;
  /** Team mode: whether this instance prunes the shared store this time (one instance at a time). */
  private pruneTurn: (() => Promise<boolean>) | undefined;
  /** Entries other instances logged (summaries: their bodies are in the store). */
  private readonly fromPeers = new WeakSet<RequestLogEntry>();
  /** The newest quick plain successes and their spans, which the store does not keep (see `add`). */
  private readonly quickEntries: (RequestLogEntry | undefined)[] = new Array(QUICK_SPANS_KEPT).fill(undefined);
  private readonly quickSpans: RequestLogEntry['spans'][] = new Array(QUICK_SPANS_KEPT).fill(undefined);
  private nextQuick = 0;

  constructor(
    private readonly capacity: number,
    private readonly persistence?: RequestLogPersistence,
    /** Stamped on every entry, so a log gathered from several instances says which served what. */
    private readonly instanceId?: string,
  ) {}

  /** Reads the newest stored entries back; called once before the gateway serves. */
  async load(): Promise<void> {
    if (!this.persistence) return;
    const stored = (await this.persistence.store.recent(this.capacity)).reverse();
    this.entries.unshift(...stored);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /**
   * Keeps `entry`, which is the log's from then on: it is stamped with the instance in place, not
   * copied. Its spans (the request's trace) come apart or on the entry.
   */
  add(entry: RequestLogEntry, spans = entry.spans): void {
    if (this.instanceId) entry.instance_id = this.instanceId;
    if (spans && !spansAreStored(entry, spans)) {
      // Spans only memory keeps are held beside the entry, for the newest QUICK_SPANS_KEPT entries only:
      // held for the whole log they outlived the young generation, and the garbage collector's work on
      // them cost more than the rest of the trace (docs/observability.md).
      if (entry.spans) delete entry.spans;
      this.quickEntries[this.nextQuick] = entry;
      this.quickSpans[this.nextQuick] = spans;
      this.nextQuick = (this.nextQuick + 1) % QUICK_SPANS_KEPT;
    } else if (spans) entry.spans = spans;
    this.keep(entry);
    this.share?.(entry);
    if (this.persistence) {
      this.pending.push(entry);
      this.timer ??= setTimeout(() => void this.flush(), this.persistence.flushMs ?? 250);
      this.timer.unref?.();
    }
  }

  /**
   * A request that presented no valid key (refused 401, or a public route): kept in a small ring of its
   * own for the list, neither stored, shared nor sent to the live feed (whose readers keep a bounded
   * list of their own), so any number of them evicts no entry of a key. /metrics counts them
   * (switchyard_errors_total by code).
   */
  addKeyless(entry: RequestLogEntry): void {
    if (this.instanceId) entry.instance_id = this.instanceId;
    this.keyless.push(entry);
    if (this.keyless.length >= 2 * KEYLESS_ENTRIES) this.keyless.splice(0, this.keyless.length - KEYLESS_ENTRIES);
  }

  /**
   * Team mode: hands every entry this instance logs to `share` (for the other instances), and takes
   * theirs through `addFromPeer`.
   */
  shareEntriesWith(share: (entry: RequestLogEntry) => void): void {
    this.share = share;
  }

  /** Team mode: prune the shared store only when `turn` says this instance has the turn. */
  pruneOnlyWhen(turn: () => Promise<boolean>): void {
    this.pruneTurn = turn;
  }

  /** An entry another instance logged (and stored): kept for the list and sent to the live feed, neither stored nor shared again. */
  addFromPeer(entry: RequestLogEntry): void {
    this.fromPeers.add(entry);
    this.keep(entry);
  }

  /** Keeps the entry for the list and hands it to the live feeds. */
  private keep(entry: RequestLogEntry): void {
    this.entries.push(entry);
    // Trimmed once it holds twice the capacity, not on every add: a splice moves every entry.
    if (this.entries.length >= 2 * this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    if (this.listeners.size === 0) return;
    const summary = withoutSpans(entry);
    for (const listener of this.listeners) listener(summary);
  }

  /**
   * Writes what is waiting, after the writes before it; called on a timer and when the gateway closes.
   * A failed write is reported and its entries wait for the next flush.
   */
  flush(now = Date.now()): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.persistence || this.pending.length === 0) return this.writing;
    const batch = this.pending;
    this.pending = [];
    const { store, retentionDays } = this.persistence;
    const prune = now - this.lastPrune >= PRUNE_EVERY_MS;
    if (prune) this.lastPrune = now;
    this.writing = this.writing.then(async () => {
      try {
        await store.insertMany(batch.map(storedForm));
      } catch (error) {
        this.pending = [...batch, ...this.pending];
        if (this.persistence?.onWriteError) this.persistence.onWriteError(error);
        else
          process.emitWarning(
            `Request log: could not store ${batch.length} entries; they are retried with the next ones: ${String(error)}`,
          );
        return;
      }
      const days = typeof retentionDays === 'function' ? retentionDays() : retentionDays;
      if (prune && (await this.hasPruneTurn()))
        await store.prune(now - days * DAY_MS, this.capacity * 10).catch(() => undefined);
    });
    return this.writing;
  }

  private async hasPruneTurn(): Promise<boolean> {
    if (!this.pruneTurn) return true;
    return this.pruneTurn().catch(() => false);
  }

  /**
   * Newest first (or slowest first): the entries of keys and the keyless ones merged by time, without
   * their spans.
   */
  recent(limit: number, filter: RequestLogFilter = {}, order: RequestLogOrder = 'time_desc'): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    // Slowest first needs every match before it can keep the `limit` slowest.
    const wanted = order === 'time_desc' ? limit : Infinity;
    const oldestKeyless = Math.max(0, this.keyless.length - KEYLESS_ENTRIES);
    let i = this.entries.length - 1;
    let k = this.keyless.length - 1;
    while (out.length < wanted && (i >= this.oldest || k >= oldestKeyless)) {
      const fromKeyless = k >= oldestKeyless && (i < this.oldest || this.keyless[k].time > this.entries[i].time);
      const entry = fromKeyless ? this.keyless[k--] : this.entries[i--];
      if (matchesFilter(entry, filter)) out.push(entry);
    }
    if (order === 'latency_desc') out.sort((a, b) => b.latency_ms - a.latency_ms).splice(limit);
    return out.map(withoutSpans);
  }

  /**
   * One entry for the detail view: another instance's is read from the shared store, with the bodies
   * it kept (the summary when the store does not answer, or has not had it for about 3 s).
   */
  async detail(id: string): Promise<RequestLogEntry | undefined> {
    const entry = this.get(id);
    if (!entry || !this.fromPeers.has(entry) || !this.persistence) return entry;
    // The live feed carries a peer's entry at once, but the peer writes it with its next batch: an entry
    // opened from the feed right away is not stored yet, and its summary would read as "bodies not kept".
    const stored = () => this.persistence!.store.get(id).catch(() => entry);
    for (const waitMs of PEER_WRITE_WAITS_MS) {
      const found = await stored();
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
    return (await stored()) ?? entry;
  }

  /** One entry, with its spans when it has them. */
  get(id: string): RequestLogEntry | undefined {
    for (let i = this.oldest; i < this.entries.length; i++) {
      if (this.entries[i].id === id) return this.withQuickSpans(this.entries[i]);
    }
    for (let k = Math.max(0, this.keyless.length - KEYLESS_ENTRIES); k < this.keyless.length; k++) {
      if (this.keyless[k].id === id) return this.keyless[k];
    }
    return undefined;
  }

  private withQuickSpans(entry: RequestLogEntry): RequestLogEntry {
    const quick = this.quickEntries.indexOf(entry);
    return quick < 0 ? entry : { ...entry, spans: this.quickSpans[quick] };
  }

  /** The index of the oldest entry kept: the array holds up to twice the capacity between trims. */
  private get oldest(): number {
    return Math.max(0, this.entries.length - this.capacity);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const REDACTED = '[redacted]';

/** Field names whose values are secrets whatever they look like (compared lower-cased, without `-` and `_`). */
const SECRET_FIELD_ENDINGS = [
  'apikey',
  'key',
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'authorization',
  'credential',
  'credentials',
  'cookie',
];

export function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, '');
  return SECRET_FIELD_ENDINGS.some((ending) => normalized.endsWith(ending));
}

const JUDGED_NAMES_BOUND = 4096;

/**
 * `isSecretName` with its verdicts remembered (header and field names repeat on every request),
 * forgotten when they grow past the bound; each request log's recorder keeps its own.
 */
export function rememberedSecretNames(): (name: string) => boolean {
  const judged = new Map<string, boolean>();
  return (name) => {
    let secret = judged.get(name);
    if (secret === undefined) {
      secret = isSecretName(name);
      if (judged.size >= JUDGED_NAMES_BOUND) judged.clear();
      judged.set(name, secret);
    }
    return secret;
  };
}

// A JSON member `"name": "value"` (escapes allowed in both) or `"name": 123`; the value may be cut off by the size cap.
// Strings are read as runs between escapes (`[^"\\]*(?:\\.[^"\\]*)*`), not an alternation tried per character.
const JSON_MEMBER = /"([^"\\]*(?:\\.[^"\\]*)*)"(\s*:\s*)("[^"\\]*(?:\\.[^"\\]*)*(?:"|$)|-?\d[\d.eE+-]*)/g;
/** Longer member names are not judged (nor redacted by name). */
const MAX_NAME_LENGTH = 64;
const MAY_MATCH_A_PATTERN = /\s|=|sk-/;
/** Each pattern with what a text must hold for it to match at all: most texts skip most patterns. */
const PATTERNS: [guard: RegExp, pattern: RegExp, replacement: string][] = [
  [/bearer|basic/i, /\b(Bearer|Basic)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  [/sk-/, /sk-[A-Za-z0-9_-]{8,}/g, `sk-…${REDACTED}`],
  // form and query encodings: api_key=…, token=…
  [/=/, /\b([A-Za-z_-]*(?:api[_-]?key|token|secret|password))=[^&\s"]+/gi, `$1=${REDACTED}`],
];

/**
 * Removes secrets from text bound for the request log: every value of a key-ish JSON field (api_key, key, token,
 * secret, password, authorization…) whatever its format, bearer credentials, `sk-` keys, and every known secret
 * (the gateway's admin key, provider keys, the key the request itself presented) wherever it appears.
 */
export function redactSecrets(
  text: string,
  knownSecrets: readonly string[] = [],
  isSecret: (name: string) => boolean = isSecretName,
): string {
  // Matched in decoded form: `"x\u002dapi\u002dkey"` names the same member as `"x-api-key"`.
  let out = MAY_HOLD_ESCAPES.test(text) ? unescapePrintable(text) : text;
  for (const secret of knownSecrets) {
    if (secret.length >= 6 && out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  }
  // Only JSON text has members to look at.
  if (out.includes('"')) out = redactSecretMembers(out, isSecret);
  // Every pattern needs whitespace (after Bearer/Basic), `sk-` or `=`: most header values have none.
  if (MAY_MATCH_A_PATTERN.test(out))
    for (const [guard, pattern, replacement] of PATTERNS) if (guard.test(out)) out = out.replace(pattern, replacement);
  return out;
}

const MAY_HOLD_ESCAPES = /\\[u/]/;
/** A JSON escape: a backslash pair is read as one, so `\\u002d` (an escaped backslash, then text) stays. */
const JSON_ESCAPE = /\\(\\|\/|u[0-9a-fA-F]{4})/g;

/**
 * JSON text with every escape of a printable ASCII character (`\u002d`, `\/`) written as the character
 * itself: the same JSON value, in the one spelling the names, patterns and known secrets are matched in.
 * Quotes, backslashes and control or non-ASCII characters keep their escapes.
 */
function unescapePrintable(text: string): string {
  return text.replace(JSON_ESCAPE, (escape, body: string) => {
    if (body === '/') return '/';
    if (body.length !== 5) return escape;
    const code = parseInt(body.slice(1), 16);
    return code >= 0x20 && code <= 0x7e && code !== 0x22 && code !== 0x5c ? String.fromCharCode(code) : escape;
  });
}

/**
 * Every key-ish member's value replaced. Read with `exec` and copied only when a member is replaced:
 * `replace` with a function built a new string on every text, most of which have no such member.
 */
function redactSecretMembers(text: string, isSecret: (name: string) => boolean): string {
  let out = '';
  let copied = 0;
  // A copy per text: `exec` moves the pattern's lastIndex.
  const members = new RegExp(JSON_MEMBER);
  for (let member = members.exec(text); member; member = members.exec(text)) {
    const name = member[1];
    if (name.length === 0 || name.length > MAX_NAME_LENGTH || !isSecret(name)) continue;
    out += `${text.slice(copied, member.index)}"${name}"${member[2]}"${REDACTED}"`;
    copied = members.lastIndex;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** A body for the request log: secrets redacted, cut to `maxBytes`. */
export function redactBody(
  body: string,
  maxBytes = 4096,
  knownSecrets: readonly string[] = [],
  isSecret: (name: string) => boolean = isSecretName,
): string {
  // Cut before redacting (with room for a secret straddling the cut), so a huge body costs no more than a small one.
  const cut = body.length > maxBytes + 256 ? body.slice(0, maxBytes + 256) : body;
  const text = redactSecrets(cut, knownSecrets, isSecret);
  if (text.length <= maxBytes && cut.length === body.length) return text;
  return `${text.slice(0, maxBytes)}… [cut from ${body.length} characters]`;
}

/** Request headers for the log: credentials and any key-ish header replaced, whatever their format. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
  knownSecrets: readonly string[] = [],
  isSecret: (name: string) => boolean = isSecretName,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name] =
      isSecret(name) || name.toLowerCase() === 'proxy-authorization'
        ? REDACTED
        : redactSecrets(text, knownSecrets, isSecret);
  }
  return out;
}
