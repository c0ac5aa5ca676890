import type { AccountRepository } from '../../store/account-repository.js';
import type { UsageRecord, UsageRepository } from '../../store/usage-repository.js';

/**
 * The usage ledger: every authenticated request, written to the database (the entries and the balance
 * they charge, in one transaction) before its answer leaves the gateway, so a process that dies right
 * after answering has still billed the request. Entries recorded in the same turn of the event loop
 * share one commit (group commit: under load, one transaction for many answers). SQLite runs in WAL
 * mode with synchronous=NORMAL: a commit survives the process being killed; only a power loss can
 * take the last commits with it. Spend per key and the total debited are counted in memory at once,
 * for the quota checks on every request.
 */
export class UsageLedger {
  /** Entries whose write failed (database locked or full): retried with the next entry. */
  private pending: UsageRecord[] = [];
  private recordedDebit = 0;
  private readonly spentByKey = new Map<string, number>();
  /** The commit the entries recorded in this turn of the event loop wait for. */
  private commit: Promise<void> | undefined;

  constructor(
    private readonly usage: UsageRepository,
    private readonly account: AccountRepository,
    /** Where a failed write is reported (the entries stay pending and are retried with the next one). */
    private readonly onWriteError: (error: unknown) => void = (error) => process.emitWarning(`Usage ledger: could not write usage records; they stay pending: ${String(error)}`),
  ) {}

  /**
   * Counts the entry at once and resolves once it is committed with the others of this turn. A failed
   * write never rejects (the answer must not wait on a broken disk): it is reported and the entries
   * stay pending for the next commit.
   */
  record(entry: UsageRecord): Promise<void> {
    if (entry.cost > 0) {
      this.recordedDebit += entry.cost;
      if (entry.key_id) this.spentByKey.set(entry.key_id, this.spentBy(entry.key_id) + entry.cost);
    }
    this.pending.push(entry);
    this.commit ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.commit = undefined;
        try {
          this.flush();
        } catch (error) {
          this.onWriteError(error);
        }
        resolve();
      }),
    );
    return this.commit;
  }

  /** Writes the entries a failed write left pending; throws when the database still refuses them. */
  flush(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const debit = batch.reduce((sum, entry) => sum + entry.cost, 0);
    // One transaction: the entries and their debit are written together or not at all.
    this.usage.transaction(() => {
      for (const entry of batch) this.usage.insert(entry);
      if (debit > 0) this.account.debit(debit);
    });
    this.pending = this.pending.slice(batch.length);
  }

  /** Total spent by a key, pending entries included. */
  spentBy(keyId: string): number {
    let spent = this.spentByKey.get(keyId);
    if (spent === undefined) {
      spent = this.usage.spentByKey(keyId) + this.pending.filter((entry) => entry.key_id === keyId).reduce((sum, entry) => sum + entry.cost, 0);
      this.spentByKey.set(keyId, spent);
    }
    return spent;
  }

  /** Everything debited since this ledger started, written or pending. */
  get totalDebited(): number {
    return this.recordedDebit;
  }

  get repository(): UsageRepository {
    return this.usage;
  }
}
