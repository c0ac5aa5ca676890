import type { AccountSettings } from '../config/gateway-options.js';
import type { AccountRecord, AccountRepository } from '../store/account-repository.js';
import type { ApiKeyRecord } from '../store/keys-repository.js';
import { GatewayError } from './gateway-error.js';
import type { UsageLedger } from './usage-ledger.js';

export interface Balance {
  amount: number;
  currency: string;
  limit?: number;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** The account: its balance, the optional spending limits, and the quota checks made on every paid request. */
export class AccountService {
  /** The stored account, read once and after each change; spending since then comes from the ledger. */
  private cached!: AccountRecord;
  private debitedAtRead = 0;
  private spentAtRead = 0;

  constructor(
    private readonly accounts: AccountRepository,
    private readonly ledger: UsageLedger,
    settings: AccountSettings,
    now: () => number = Date.now,
  ) {
    accounts.create({ full_name: settings.fullName, currency: settings.currency, balance: settings.initialBalance, spend_limit: null, created_at: now() });
    this.reload();
  }

  private reload(): void {
    this.ledger.flush();
    this.cached = this.accounts.get() as AccountRecord;
    this.debitedAtRead = this.ledger.totalDebited;
    this.spentAtRead = this.cached.spend_limit === null ? 0 : this.ledger.repository.spentTotal();
  }

  private spentSinceRead(): number {
    return this.ledger.totalDebited - this.debitedAtRead;
  }

  record(): AccountRecord {
    return { ...this.cached, balance: this.cached.balance - this.spentSinceRead() };
  }

  /** The balance after every recorded debit; `limit` only when one is set on the account or on the presenting key. */
  balance(key?: ApiKeyRecord): Balance {
    const account = this.record();
    const balance: Balance = { amount: round(account.balance), currency: account.currency };
    const limit = key?.spend_limit ?? account.spend_limit;
    if (limit !== null && limit !== undefined) balance.limit = limit;
    return balance;
  }

  update(changes: { full_name?: string; balance?: number; spend_limit?: number | null }): AccountRecord {
    this.ledger.flush();
    this.accounts.update(changes);
    this.reload();
    return this.record();
  }

  /** Throws 402 naming the exhausted limit: the account's balance, its spending limit, or the key's. */
  assertCanSpend(key: ApiKeyRecord): void {
    const account = this.record();
    if (account.balance <= 0) {
      throw new GatewayError(402, 'balance_exhausted', `The account balance is exhausted (${account.currency} ${round(account.balance)}). An Owner can top it up with PATCH /account/balance.`);
    }
    if (account.spend_limit !== null) {
      const spent = this.spentAtRead + this.spentSinceRead();
      if (spent >= account.spend_limit) {
        throw new GatewayError(402, 'account_limit_reached', `The account's spending limit of ${account.currency} ${account.spend_limit} is reached. An Owner can raise it with PATCH /account/balance.`);
      }
    }
    if (key.spend_limit !== null && this.ledger.spentBy(key.id) >= key.spend_limit) {
      throw new GatewayError(402, 'key_limit_reached', `This key's spending limit of ${account.currency} ${key.spend_limit} is reached. An Owner can raise it with PATCH /account/keys/${key.id}.`);
    }
  }
}
