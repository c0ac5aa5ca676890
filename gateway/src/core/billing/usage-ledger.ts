import type { UsageRecord, UsageRepository } from '../../store/usage-repository.js';
import { newTimeOrderedId } from '../ids/ids.js';
import type { UsageJournal } from './usage-journal.js';

/**
 * The usage ledger: every authenticated request, written to the database (the entries and the balance
 * they charge, in one transaction) before its answer leaves the gateway, so a process that dies right
 * after answering has still billed the request. Entries recorded in the same turn of the event loop
 * share one commit (group commit: under load, one transaction for many answers). SQLite runs in WAL
 * mode with synchronous=NORMAL: a commit survives the process being killed; only a power loss can
 * take the last commits with it (PostgreSQL: a commit is durable). Spend per key and the total debited are counted in memory at once,
 * for the quota checks on every request.
 *
 * With a journal, a batch the database refuses (an outage) is appended to a local file and fsync'd
 * before its answers leave; the file is replayed at the next start and emptied once the database has
 * the entries. Every entry carries an `entry_id`: after a failed write (whose commit may still have
 * happened) and on a replay, the entries the database already holds are skipped, so nothing is billed twice.
 */
export class UsageLedger {
  /** Entries not yet written (a failed write puts its entries back here for the next commit). */
  private pending: UsageRecord[] = [];
  private recordedDebit = 0;
  private writtenDebit = 0;
  /** Spent per key: read once at start (`load`), then counted in memory. */
  private spentByKey = new Map<string, number>();
  /** The commit the entries recorded in this turn of the event loop wait for. */
  private commit: Promise<void> | undefined;
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
    private readonly onWriteError: (error: unknown) => void = (error) => process.emitWarning(`Usage ledger: could not write usage records; they stay pending: ${String(error)}`),
    private readonly retryMs = 1000,
    /** Keeps refused batches on local disk until the database takes them (absent: they wait in memory only). */
    private readonly journal?: UsageJournal,
    /** Called when a write succeeds after failed ones (the database is back). */
    private readonly onWriteRecovered: () => void = () => undefined,
  ) {}

  /**
   * Writes what the journal kept from a previous process (skipping entries already stored), then reads
   * what each key has spent so far; called once before the gateway serves. Rejects when the database
   * refuses the replay (the journal is kept for the next start).
   */
  async load(): Promise<void> {
    const kept = (await this.journal?.read()) ?? [];
    if (kept.length > 0) {
      const stored = await this.usage.storedEntryIds(kept.flatMap((entry) => (entry.entry_id ? [entry.entry_id] : [])));
      const missing = kept.filter((entry) => !entry.entry_id || !stored.has(entry.entry_id));
      if (missing.length > 0) await this.usage.append(missing);
      await this.journal?.clear();
    }
    const stored = await this.usage.spentPerKey();
    for (const [keyId, spent] of this.spentByKey) stored.set(keyId, (stored.get(keyId) ?? 0) + spent);
    this.spentByKey = stored;
  }

  /**
   * Counts the entry at once and resolves once it is committed with the others of this turn. A failed
   * write never rejects (the answer must not wait on a broken disk): it is reported and the entries
   * stay pending for the next commit.
   */
  record(entry: UsageRecord): Promise<void> {
    entry.entry_id ??= newTimeOrderedId('use_');
    if (entry.cost > 0) {
      this.recordedDebit += entry.cost;
      if (entry.key_id) this.spentByKey.set(entry.key_id, this.spentBy(entry.key_id) + entry.cost);
    }
    this.pending.push(entry);
    this.commit ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.commit = undefined;
        this.flush().then(resolve, (error: unknown) => {
          this.onWriteError(error);
          // The answers wait until the refused entries are on local disk (when there is a journal).
          this.journalPending().then(resolve, (journalError: unknown) => {
            this.onWriteError(journalError);
            resolve();
          });
        });
      }),
    );
    return this.commit;
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
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    try {
      // After a failed write the database may hold some of these already (its commit answer was lost).
      const stored = this.uncertain ? await this.usage.storedEntryIds(batch.map((entry) => entry.entry_id ?? '')) : undefined;
      // One transaction: the entries and their debit are written together or not at all.
      const missing = stored ? batch.filter((entry) => !stored.has(entry.entry_id ?? '')) : batch;
      if (missing.length > 0) await this.usage.append(missing);
      if (stored) this.onWriteRecovered();
      this.uncertain = false;
    } catch (error) {
      this.pending = [...batch, ...this.pending];
      this.uncertain = true;
      this.scheduleRetry();
      throw error;
    }
    this.writtenDebit += batch.reduce((sum, entry) => sum + entry.cost, 0);
    if (this.journaled.size === 0) return;
    for (const entry of batch) this.journaled.delete(entry.entry_id ?? '');
    if (this.journaled.size === 0) await this.journal?.clear().catch((error: unknown) => this.onWriteError(error));
  }

  /** Appends the pending entries not yet in the journal to it (fsync'd). */
  private async journalPending(): Promise<void> {
    if (!this.journal) return;
    const fresh = this.pending.filter((entry) => !this.journaled.has(entry.entry_id ?? ''));
    for (const entry of fresh) this.journaled.add(entry.entry_id ?? '');
    await this.journal.append(fresh);
  }

  /** Stops retrying in the background and makes a last attempt to write what is pending. */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    return this.flush();
  }

  /** How many entries wait for the database (it refused or did not answer). */
  get pendingCount(): number {
    return this.pending.length;
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
