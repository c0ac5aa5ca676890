import type { UsageRecord, UsageRepository } from '../../store/usage-repository.js';
import { IdGenerator } from '../ids/id-generator.js';
import type { UsageJournal } from './usage-journal.js';

/** How long, journal first, the entries wait for their commit (they are in the journal meanwhile). */
const COMMIT_DELAY_MS = 10;

/**
 * The usage ledger: every authenticated request, kept where a process that dies right after answering
 * has still billed it. Journal first (the gateway on SQLite), the entries recorded in one turn of the
 * event loop are appended to it in one write before their answers leave, then committed to the
 * database (the entries and the balance they charge, in one transaction) without the answers waiting:
 * the journal reaches the operating system's page cache, as SQLite's commits do in WAL mode with
 * synchronous=NORMAL, so a killed process loses nothing; only a power loss can take the last
 * milliseconds with it; one commit takes the entries of COMMIT_DELAY_MS. Otherwise (no journal, or on
 * PostgreSQL, which every instance reads) the answers wait for the commit, and the entries recorded in
 * the same turn share one (group commit); the journal then keeps only what the database refuses. Spend per
 * key and the total debited are counted in memory at once, for the quota checks on every request.
 *
 * While the database refuses writes (an outage), the journal is also fsync'd before answers leave;
 * it is replayed at the next start. Every entry carries an `entry_id`: after a failed write (whose
 * commit may still have happened) and on a replay, the entries the database already holds are
 * skipped, so nothing is billed twice.
 */
export class UsageLedger {
  /** Entries not yet written (a failed write puts its entries back here for the next commit). */
  private pending: UsageRecord[] = [];
  /** Entries of the write under way (taken from `pending`, not committed yet). */
  private inFlight = 0;
  private recordedDebit = 0;
  private writtenDebit = 0;
  /** Spent per key: read once at start (`load`), then counted in memory. */
  private spentByKey = new Map<string, number>();
  /** What the answers of the entries recorded in this turn of the event loop wait for. */
  private commit: Promise<void> | undefined;
  /** Entries recorded but not yet appended to the journal (journal first only). */
  private unjournaled: UsageRecord[] = [];
  private readonly journalFirst: boolean;
  private commitTimer: ReturnType<typeof setTimeout> | undefined;
  /** Writes run one after another, so a batch is never written twice or out of order. */
  private writing: Promise<unknown> = Promise.resolve();
  /** After a failed write: the next try, even when no new entry comes to carry the pending ones. */
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** A write failed: its commit may still have happened, so the next write skips entries already stored. */
  private uncertain = false;
  /** Ids of the entries in the journal that the database does not have yet. */
  private readonly journaled = new Set<string>();

  constructor(
    private readonly usage: UsageRepository,
    /** Where a failed write is reported (the entries stay pending and are retried with the next one). */
    private readonly onWriteError: (error: unknown) => void = (error) =>
      process.emitWarning(`Usage ledger: could not write usage records; they stay pending: ${String(error)}`),
    private readonly retryMs = 1000,
    /** Keeps the entries on local disk until the database has them (absent: answers wait for the commit). */
    private readonly journal?: UsageJournal,
    /** Called when a write succeeds after failed ones (the database is back). */
    private readonly onWriteRecovered: () => void = () => undefined,
    /**
     * Whether answers leave once their entries are in the journal ('journal'), or wait for the
     * database's commit ('commit': the journal keeps only what the database refuses).
     */
    answerAfter: 'journal' | 'commit' = 'journal',
    private readonly ids = new IdGenerator(),
  ) {
    this.journalFirst = journal !== undefined && answerAfter === 'journal';
  }

  /**
   * Writes what the journals of earlier processes kept (skipping entries already stored), then reads
   * what each key has spent so far; called once before the gateway serves. Rejects when the database
   * refuses the replay (the journals are kept for the next start).
   */
  async load(): Promise<void> {
    const kept = await this.journal?.takeOver();
    if (kept && kept.entries.length > 0) {
      const stored = await this.usage.storedEntryIds(
        kept.entries.flatMap((entry) => (entry.entry_id ? [entry.entry_id] : [])),
      );
      const missing = kept.entries.filter((entry) => !entry.entry_id || !stored.has(entry.entry_id));
      if (missing.length > 0) await this.usage.append(missing);
    }
    await kept?.replayed();
    const stored = await this.usage.spentPerKey();
    for (const [keyId, spent] of this.spentByKey) stored.set(keyId, (stored.get(keyId) ?? 0) + spent);
    this.spentByKey = stored;
  }

  /**
   * Counts the entry at once and resolves once it is in the journal with the others of this turn
   * (without a journal, or when the disk refuses it: once they are committed). A failed write never
   * rejects (the answer must not wait on a broken disk): it is reported and the entries stay pending
   * for the next commit.
   */
  record(entry: UsageRecord): Promise<void> {
    entry.entry_id ??= this.ids.orderedId('use_');
    if (entry.cost > 0) {
      this.recordedDebit += entry.cost;
      if (entry.key_id) this.spentByKey.set(entry.key_id, this.spentBy(entry.key_id) + entry.cost);
    }
    this.pending.push(entry);
    if (this.journalFirst) this.unjournaled.push(entry);
    this.commit ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.commit = undefined;
        const reportAndResolve = (error: unknown) => {
          this.onWriteError(error);
          resolve();
        };
        if (this.journalFirst && this.journalNow()) {
          // While the database refuses writes, the journal is all there is: it goes to the disk itself first.
          if (this.uncertain) this.journal?.sync().then(resolve, reportAndResolve);
          else resolve();
          this.scheduleCommit();
          return;
        }
        this.flush().then(resolve, (error: unknown) => {
          this.onWriteError(error);
          // The answers wait until the refused entries are on the local disk.
          this.journalRefused().then(resolve, reportAndResolve);
        });
      }),
    );
    return this.commit;
  }

  /**
   * Journal first, the commit gathers the entries of a few milliseconds: started at once, it would run
   * in between the answers' own steps, and one commit per request costs more than the entries it writes.
   */
  private scheduleCommit(): void {
    this.commitTimer ??= setTimeout(() => {
      this.commitTimer = undefined;
      this.flush().catch(this.onWriteError);
    }, COMMIT_DELAY_MS);
  }

  /** Appends the entries recorded since the last append to the journal; false when the disk refuses. */
  private journalNow(): boolean {
    if (this.unjournaled.length === 0) return true;
    const entries = this.unjournaled;
    this.unjournaled = [];
    return this.appendToJournal(entries);
  }

  /** Appends the pending entries not yet in the journal to it, then fsyncs it. */
  private async journalRefused(): Promise<void> {
    if (!this.journal) return;
    if (!this.appendToJournal(this.pending.filter((entry) => !this.journaled.has(entry.entry_id ?? '')))) return;
    await this.journal.sync();
  }

  private appendToJournal(entries: readonly UsageRecord[]): boolean {
    if (!this.journal) return false;
    try {
      if (entries.length > 0) this.journal.appendNow(entries);
    } catch (error) {
      this.onWriteError(error);
      return false;
    }
    for (const entry of entries) this.journaled.add(entry.entry_id ?? '');
    return true;
  }

  /** Writes the pending entries; rejects when the database still refuses them. */
  flush(): Promise<void> {
    return this.exclusive(async () => undefined).then(() => undefined);
  }

  /**
   * Writes the pending entries, then runs `read` before any other write: what it reads from the
   * database includes exactly the debits counted in `written`.
   */
  exclusive<T>(read: () => Promise<T>): Promise<{ value: T; written: number }> {
    const run = this.writing.then(async () => {
      await this.writePending();
      return { value: await read(), written: this.writtenDebit };
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    // An entry reaches the journal before the database, so the journal can start over once the database has them all.
    if (this.journalFirst) this.journalNow();
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.inFlight = batch.length;
    try {
      // After a failed write the database may hold some of these already (its commit answer was lost).
      const stored = this.uncertain
        ? await this.usage.storedEntryIds(batch.map((entry) => entry.entry_id ?? ''))
        : undefined;
      // One transaction: the entries and their debit are written together or not at all.
      const missing = stored ? batch.filter((entry) => !stored.has(entry.entry_id ?? '')) : batch;
      // Journal first, nothing waits for the commit on its path: it runs on SQLite's writer thread.
      if (missing.length > 0) await this.usage.append(missing, this.journalFirst);
      if (stored) this.onWriteRecovered();
      this.uncertain = false;
    } catch (error) {
      this.inFlight = 0;
      this.pending = [...batch, ...this.pending];
      this.uncertain = true;
      this.scheduleRetry();
      // Journal first, the answers of this batch have left: what the journal has of them goes to the disk itself now.
      if (this.journalFirst) this.journal?.sync().catch(this.onWriteError);
      throw error;
    }
    this.inFlight = 0;
    this.writtenDebit += batch.reduce((sum, entry) => sum + entry.cost, 0);
    if (this.journaled.size === 0) return;
    for (const entry of batch) this.journaled.delete(entry.entry_id ?? '');
    if (this.journaled.size > 0) return;
    try {
      // Journal first, every turn appends to it: it starts over only once it is large.
      if (this.journalFirst) this.journal?.allCommitted();
      else this.journal?.startOver();
    } catch (error) {
      this.onWriteError(error);
    }
  }

  /** Stops retrying in the background and makes a last attempt to write what is pending. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    try {
      await this.flush();
    } finally {
      await this.journal?.close(this.pending.length === 0 && this.journaled.size === 0);
    }
  }

  /** How many entries the database does not have yet: waiting for their commit, or refused and to be tried again. */
  get pendingCount(): number {
    return this.pending.length + this.inFlight;
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.flush().catch((error: unknown) => this.onWriteError(error));
    }, this.retryMs);
    this.retry.unref();
  }

  /** Total spent by a key, pending entries included. */
  spentBy(keyId: string): number {
    return this.spentByKey.get(keyId) ?? 0;
  }

  /** Everything debited since this ledger started, written or pending. */
  get totalDebited(): number {
    return this.recordedDebit;
  }

  get repository(): UsageRepository {
    return this.usage;
  }
}
