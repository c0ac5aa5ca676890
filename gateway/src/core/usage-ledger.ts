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
  ) {}

  record(entry: UsageRecord): void {
    this.pending.push(entry);
    if (entry.cost > 0) {
      this.pendingDebit += entry.cost;
      this.recordedDebit += entry.cost;
      if (entry.key_id) this.spentByKey.set(entry.key_id, this.spentBy(entry.key_id) + entry.cost);
    }
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushIntervalMs);
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
    this.usage.insertMany(batch);
    if (debit > 0) this.account.debit(debit);
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
