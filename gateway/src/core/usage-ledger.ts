import type { AccountRepository } from '../store/account-repository.js';
import type { UsageRecord, UsageRepository } from '../store/usage-repository.js';

/**
 * The usage ledger: every authenticated request, buffered in memory and written in batches
 * (one transaction every `flushIntervalMs`), so recording stays off the request's latency.
 * Spend per key is kept in memory too, for the quota checks on every request.
 */
export class UsageLedger {
  private pending: UsageRecord[] = [];
  private pendingDebit = 0;
  private recordedDebit = 0;
  private readonly spentByKey = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly usage: UsageRepository,
    private readonly account: AccountRepository,
    private readonly flushIntervalMs = 200,
    /** Where a failed background write is reported (the records stay pending for the next flush). */
    private readonly onFlushError: (error: unknown) => void = (error) => process.emitWarning(`Usage ledger: could not write usage records; they stay pending: ${String(error)}`),
  ) {}

  record(entry: UsageRecord): void {
    this.pending.push(entry);
    if (entry.cost > 0) {
      this.pendingDebit += entry.cost;
      this.recordedDebit += entry.cost;
      if (entry.key_id) this.spentByKey.set(entry.key_id, this.spentBy(entry.key_id) + entry.cost);
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flushInBackground(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const debit = this.pendingDebit;
    this.pending = [];
    this.pendingDebit = 0;
    try {
      this.usage.insertMany(batch);
    } catch (error) {
      // Nothing was written (one transaction): keep the records for the next flush.
      this.pending = [...batch, ...this.pending];
      this.pendingDebit += debit;
      throw error;
    }
    if (debit > 0) this.account.debit(debit);
  }

  /** The timer's flush: an exception thrown from a timer would end the process (and the desktop app with it). */
  private flushInBackground(): void {
    try {
      this.flush();
    } catch (error) {
      this.onFlushError(error);
    }
  }

  /** Total spent by a key, pending records included. */
  spentBy(keyId: string): number {
    let spent = this.spentByKey.get(keyId);
    if (spent === undefined) {
      spent = this.usage.spentByKey(keyId);
      this.spentByKey.set(keyId, spent);
    }
    return spent;
  }

  /** Everything debited since this ledger started, flushed or not. */
  get totalDebited(): number {
    return this.recordedDebit;
  }

  get repository(): UsageRepository {
    return this.usage;
  }
}
