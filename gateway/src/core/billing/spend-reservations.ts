/** Which money limit a reservation has to fit in. */
export type SpendLimit = 'balance' | 'account_limit' | 'key_limit';

/** Money held for one request between the provider call and its settlement. */
export interface Reservation {
  readonly id: string;
  readonly keyId: string;
  readonly amount: number;
  /** Part of a larger hold, a lease (team mode): settling it takes its amount off that hold instead of dropping it. */
  readonly ofLease?: true;
}

export interface SpendRefusal {
  refused: SpendLimit;
  /** What was left under that limit, requests in flight deducted. */
  available: number;
}

/** Money already spent (written to the ledger), as the limits see it. */
export interface CommittedSpend {
  balance: number;
  accountLimit: number | null;
  accountSpent: number;
  keySpent: number;
}

/**
 * Reservations against the balance, the account's spending limit and the key's. Requests in flight
 * hold their estimated cost, so concurrent requests cannot all pass a limit that fits only some;
 * the real cost replaces the estimate at settlement. Asynchronous so that team mode can keep the
 * reservations in a shared store (Redis) without changing callers.
 */
export interface SpendReservations {
  reserve(request: { keyId: string; keyLimit: number | null; amount: number }): Promise<Reservation | SpendRefusal>;
  /** The request finished and `actualCost` is in the ledger: the hold goes. */
  settle(reservation: Reservation, actualCost: number): Promise<void>;
  /** The request failed or was abandoned without a charge. */
  release(reservation: Reservation): Promise<void>;
  /**
   * The balance after every settled debit, as the shared counters hold it (team mode), or undefined
   * when the reservations are this process's own and the caller's count is the whole truth.
   */
  sharedBalance?(keyId: string): Promise<number | undefined>;
}

/** Rounding slack, so five requests of 0.2 fit a limit of 1. */
export const EPSILON = 1e-9;

/** A free request only needs something left; a priced one needs its whole estimate. */
export function fits(available: number, amount: number): boolean {
  return amount > 0 ? amount <= available + EPSILON : available > EPSILON;
}

/** The refusal naming `limit` when `amount` does not fit in what is `available` under it. */
function refusalUnlessFits(limit: SpendLimit, available: number, amount: number): SpendRefusal | undefined {
  return fits(available, amount) ? undefined : { refused: limit, available: Math.max(0, available) };
}

/**
 * Money already spent as this process knows it, read when a reservation is checked. Methods rather
 * than a `CommittedSpend` per request: the object literal built on every reservation was
 * deoptimised over and over by V8 once its numbers turned from small integers to fractions
 * (docs/performance.md).
 */
export interface SpendSoFar {
  balance(): number;
  accountLimit(): number | null;
  accountSpent(): number;
  keySpent(keyId: string): number;
}

/** Reservations held in this process's memory: the embedded gateway's (one process owns the database). */
export class LocalSpendReservations implements SpendReservations {
  private readonly held = new Map<string, Reservation>();
  /** Reservation ids only this process sees: a counter is enough (and cheaper than a UUID per request). */
  private issued = 0;
  private reservedTotal = 0;
  private readonly reservedByKey = new Map<string, number>();

  constructor(private readonly spent: SpendSoFar) {}

  async reserve({
    keyId,
    keyLimit,
    amount,
  }: {
    keyId: string;
    keyLimit: number | null;
    amount: number;
  }): Promise<Reservation | SpendRefusal> {
    const { spent } = this;
    const accountLimit = spent.accountLimit();
    const refusal =
      refusalUnlessFits('balance', spent.balance() - this.reservedTotal, amount) ??
      (accountLimit === null
        ? undefined
        : refusalUnlessFits('account_limit', accountLimit - spent.accountSpent() - this.reservedTotal, amount)) ??
      (keyLimit === null
        ? undefined
        : refusalUnlessFits(
            'key_limit',
            keyLimit - spent.keySpent(keyId) - (this.reservedByKey.get(keyId) ?? 0),
            amount,
          ));
    if (refusal) return refusal;
    const reservation: Reservation = { id: `r${++this.issued}`, keyId, amount };
    this.held.set(reservation.id, reservation);
    this.reservedTotal += amount;
    this.reservedByKey.set(keyId, (this.reservedByKey.get(keyId) ?? 0) + amount);
    return reservation;
  }

  async settle(reservation: Reservation): Promise<void> {
    this.drop(reservation);
  }

  async release(reservation: Reservation): Promise<void> {
    this.drop(reservation);
  }

  /** Money held by requests in flight (for tests and metrics). */
  get reserved(): number {
    return this.reservedTotal;
  }

  private drop(reservation: Reservation): void {
    if (!this.held.delete(reservation.id)) return;
    this.reservedTotal -= reservation.amount;
    const left = (this.reservedByKey.get(reservation.keyId) ?? 0) - reservation.amount;
    if (this.held.size === 0) this.reservedTotal = 0;
    if (left > EPSILON) this.reservedByKey.set(reservation.keyId, left);
    else this.reservedByKey.delete(reservation.keyId);
  }
}
