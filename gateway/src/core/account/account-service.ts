import type { AccountSettings } from '../../config/file-settings.js';
import type { AccountRecord, AccountRepository } from '../../store/account-repository.js';
import type { ApiKeyRecord } from '../../store/keys-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import {
  LocalSpendReservations,
  type Reservation,
  type SpendRefusal,
  type SpendReservations,
  type SpendSoFar,
} from '../billing/spend-reservations.js';
import type { UsageLedger } from '../billing/usage-ledger.js';
import type { UsageGroup, UsageTotals } from '../../store/usage-repository.js';

/** What the account (or one key) has used: totals, by model, and by day over the last 30 days. */
export interface UsageReport {
  totals: UsageTotals;
  currency: string;
  byModel: UsageGroup[];
  byDay: UsageGroup[];
}

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
  private readonly initial: AccountRecord;
  private spentAtRead = 0;
  private readonly reservations: SpendReservations;
  /** Told after every change of the account (team mode: the other instances then read it again). */
  private announce: () => void = () => undefined;

  constructor(
    private readonly accounts: AccountRepository,
    private readonly ledger: UsageLedger,
    settings: AccountSettings,
    now: () => number = Date.now,
    reservationsFor: (spent: SpendSoFar) => SpendReservations = (spent) => new LocalSpendReservations(spent),
  ) {
    this.initial = {
      full_name: settings.fullName,
      currency: settings.currency,
      balance: settings.initialBalance,
      spend_limit: null,
      created_at: now(),
    };
    this.reservations = reservationsFor({
      balance: () => this.cached.balance - this.spentSinceRead(),
      accountLimit: () => this.cached.spend_limit,
      accountSpent: () => this.spentAtRead + this.spentSinceRead(),
      keySpent: (keyId) => this.ledger.spentBy(keyId),
    });
  }

  announceChangesTo(listener: () => void): void {
    this.announce = listener;
  }

  /** Creates the account at first start and reads it; called once before the gateway serves. */
  async load(): Promise<void> {
    await this.accounts.create(this.initial);
    await this.reload();
  }

  /** Reads the stored account again (another instance changed it), after `change` when given. */
  async reload(change?: () => Promise<void>): Promise<void> {
    const { value, written } = await this.ledger.exclusive(async () => {
      await change?.();
      const account = await this.accounts.get();
      if (!account) throw new Error('The account row is missing from the database.');
      return { account, spent: account.spend_limit === null ? 0 : await this.ledger.repository.spentTotal() };
    });
    this.cached = value.account;
    this.spentAtRead = value.spent;
    // What was debited but not yet written when the database was read is still to come off the balance.
    this.debitedAtRead = written;
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

  /**
   * The balance as every instance sees it: in team mode the shared counters (each instance's settled
   * debits), so two instances answer the same right after requests on either; alone, `balance`.
   */
  async sharedBalance(key: ApiKeyRecord): Promise<Balance> {
    const balance = this.balance(key);
    const shared = await this.reservations.sharedBalance?.(key.id);
    return shared === undefined ? balance : { ...balance, amount: round(shared) };
  }

  /** The usage of the whole account (no key) or of one key, read after the ledger's pending entries are written. */
  async usage(keyId: string | undefined): Promise<UsageReport> {
    await this.ledger.flush();
    const repository = this.ledger.repository;
    const totals = await repository.totals(keyId);
    const currency = this.record().currency;
    return { totals, currency, byModel: await repository.byModel(keyId), byDay: await repository.byDay(keyId) };
  }

  async update(changes: { full_name?: string; balance?: number; spend_limit?: number | null }): Promise<AccountRecord> {
    await this.reload(() => this.accounts.update(changes));
    this.announce();
    return this.record();
  }

  /**
   * Holds `amount` (the request's estimated cost) against the balance and both spending limits, with
   * requests in flight deducted; throws 402 naming the limit it does not fit in.
   */
  async reserve(key: ApiKeyRecord, amount: number): Promise<Reservation> {
    const outcome = await this.reservations.reserve({ keyId: key.id, keyLimit: key.spend_limit, amount });
    if ('id' in outcome) return outcome;
    throw this.refusalError(outcome, key, amount);
  }

  /** The request's real cost is in the ledger: its hold goes. */
  settle(reservation: Reservation, actualCost: number): Promise<void> {
    return this.reservations.settle(reservation, actualCost);
  }

  /** The request failed or was abandoned without a charge. */
  release(reservation: Reservation): Promise<void> {
    return this.reservations.release(reservation);
  }

  private refusalError(refusal: SpendRefusal, key: ApiKeyRecord, amount: number): GatewayError {
    const { currency } = this.record();
    const money = (value: number) => `${currency} ${round(value)}`;
    const needs = amount > 0 ? `This request may cost up to ${money(amount)} (prompt estimate plus max_tokens); ` : '';
    const left = `${money(refusal.available)} is left once requests in flight are counted`;
    switch (refusal.refused) {
      case 'balance':
        return new GatewayError(
          402,
          'balance_exhausted',
          `${needs}the account balance is too low: ${left}. An Owner can top it up with PATCH /account/balance.`,
        );
      case 'account_limit':
        return new GatewayError(
          402,
          'account_limit_reached',
          `${needs}the account's spending limit of ${money(this.cached.spend_limit ?? 0)} is reached: ${left}. An Owner can raise it with PATCH /account/balance.`,
        );
      case 'key_limit':
        return new GatewayError(
          402,
          'key_limit_reached',
          `${needs}this key's spending limit of ${money(key.spend_limit ?? 0)} is reached: ${left}. An Owner can raise it with PATCH /account/keys/${key.id}.`,
        );
    }
  }

  /** Throws 402 naming the exhausted limit: the account's balance, its spending limit, or the key's. */
  assertCanSpend(key: ApiKeyRecord): void {
    const account = this.record();
    if (account.balance <= 0) {
      throw new GatewayError(
        402,
        'balance_exhausted',
        `The account balance is exhausted (${account.currency} ${round(account.balance)}). An Owner can top it up with PATCH /account/balance.`,
      );
    }
    if (account.spend_limit !== null) {
      const spent = this.spentAtRead + this.spentSinceRead();
      if (spent >= account.spend_limit) {
        throw new GatewayError(
          402,
          'account_limit_reached',
          `The account's spending limit of ${account.currency} ${account.spend_limit} is reached. An Owner can raise it with PATCH /account/balance.`,
        );
      }
    }
    if (key.spend_limit !== null && this.ledger.spentBy(key.id) >= key.spend_limit) {
      throw new GatewayError(
        402,
        'key_limit_reached',
        `This key's spending limit of ${account.currency} ${key.spend_limit} is reached. An Owner can raise it with PATCH /account/keys/${key.id}.`,
      );
    }
  }
}
