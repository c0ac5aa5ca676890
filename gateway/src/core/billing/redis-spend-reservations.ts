import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../../store/redis/redis-connection.js';
import { nextLeaseSize, type LeaseSizing } from '../team/lease-size.js';
import { teamStoreUnavailable } from '../team/team-store-unavailable.js';
import { RESERVE, SETTLE, SYNC } from './redis-spend-scripts.js';
import {
  EPSILON,
  fits,
  type CommittedSpend,
  type Reservation,
  type SpendLimit,
  type SpendRefusal,
  type SpendReservations,
} from './spend-reservations.js';

/** A hold whose instance died (no settle, no release) is dropped after this long. */
const HOLD_TTL_MS = 15 * 60_000;
/** The shared spend counters are read again from the database this often, so a missed update does not last. */
const RESYNC_MS = 60_000;
/** How long an instance may hand out parts of one lease; what is left then is given back. */
export const SPEND_LEASE_MS = 1_000;
/** The most requests' worth one lease asks for. */
const MAX_LEASE_REQUESTS = 64;
/** What a lease holds per free request (it needs something left, not an amount). */
const FREE_REQUEST_FLOOR = 1e-6;

/** How much the key's next lease asks for: as many requests' worth as `nextLeaseSize` says. */
function leaseWanted(slots: LeaseState, askedAt: number, amount: number): number {
  return nextLeaseSize(slots, askedAt, SPEND_LEASE_MS, MAX_LEASE_REQUESTS) * Math.max(amount, FREE_REQUEST_FLOOR);
}

/** At most this many settlements share one script call. */
const SETTLEMENTS_PER_CALL = 256;
/**
 * How long the settlements of lease parts gather before they go to Redis in one call (at 1,000
 * requests a second, one call instead of ten). A part settling only frees what its estimate held
 * beyond its cost, and leases exist only far from every limit (2 % of the room left), so no request is
 * refused for the wait. A settlement of a request held on its own (near a limit) or of a lease's rest
 * given back goes at the end of its turn instead, with whatever is gathered.
 */
export const LEASE_SETTLE_DELAY_MS = 10;

/** Money held in Redis for this instance's next requests of one key, handed out locally until `endsAt`. */
interface SpendLease {
  id: string;
  keyId: string;
  keyLimit: number | null;
  free: number;
  size: number;
  endsAt: number;
}

/** A key's lease, the next one on its way, and how many requests' worth the next asks for. */
interface LeaseState extends LeaseSizing {
  lease: SpendLease | undefined;
  refill: Promise<unknown> | undefined;
  /** Until then Redis declined leases for the key (too close to a limit): each request is held on its own, at once. */
  declinedUntil: number;
}

interface Settlement {
  reservation: Reservation;
  cost: number;
  settled: () => void;
  failed: (error: unknown) => void;
}

/**
 * Team mode's reservations: the holds of every instance and the money spent are counted in Redis, so
 * a request on one instance sees what the others hold and have spent. The counters start from the
 * database (`stored`), are updated by each settlement, and are read from the database again every
 * minute and after the account changes. While Redis is away, paid requests get 503 (fail closed).
 *
 * A busy key does not make a round trip per request: the instance holds a lease (one hold of several
 * requests' worth, asked for again while half of it is left) and hands out parts of it locally for
 * `SPEND_LEASE_MS`; each part settles on its own, what is left goes back. A lease is granted only
 * while it is at most 2 % of what is left under every limit, so near a limit each request is held on
 * its own, as exactly as before, and other instances lose at most that much room, for at most a second.
 */
export class RedisSpendReservations implements SpendReservations {
  /** Settlements not sent yet: at the end of this turn, or within LEASE_SETTLE_DELAY_MS when all are lease parts. */
  private settlements: Settlement[] = [];
  private sendScheduled: 'turn' | 'delay' | undefined;
  private sendTimer: NodeJS.Timeout | undefined;
  /** Per key, the lease this instance hands out parts of. */
  private readonly leases = new Map<string, LeaseState>();
  /** Counts the retirements of every lease: a lease granted before the last one is not kept. */
  private leaseEpoch = 0;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly redis: RedisConnection,
    /** What the database says was spent: read only when the shared counters are missing. */
    private readonly stored: (keyId: string) => Promise<CommittedSpend>,
  ) {}

  private keys(keyId: string): string[] {
    const p = `${this.redis.prefix}spend:`;
    return [`${p}account`, `${p}key:${keyId}`, `${p}held`, `${p}held:amount`, `${p}held:key`, `${p}held:sum`];
  }

  async reserve(request: {
    keyId: string;
    keyLimit: number | null;
    amount: number;
  }): Promise<Reservation | SpendRefusal> {
    const part = this.partOfLease(request);
    if (part) return part;
    const slots = this.leaseState(request.keyId);
    if (slots.refill) {
      await slots.refill.catch(() => undefined);
      return this.reserve(request);
    }
    const askedAt = performance.now();
    if (askedAt < slots.declinedUntil) return this.hold(request, request.amount, askedAt);
    const asked = this.hold(request, leaseWanted(slots, askedAt, request.amount), askedAt);
    if (slots.size > 1) {
      slots.refill = asked;
      void asked
        .catch(() => undefined)
        .finally(() => {
          if (slots.refill === asked) slots.refill = undefined;
        });
    }
    return asked;
  }

  /** A part of the key's lease when it has room for this request (no round trip), else undefined. */
  private partOfLease({
    keyId,
    keyLimit,
    amount,
  }: {
    keyId: string;
    keyLimit: number | null;
    amount: number;
  }): Reservation | undefined {
    const slots = this.leases.get(keyId);
    const lease = slots?.lease;
    if (!slots || !lease) return undefined;
    if (!fits(lease.free, amount) || lease.keyLimit !== keyLimit || performance.now() >= lease.endsAt) {
      // It could not serve this request: what is left goes back, and the next request asks for a new one.
      slots.lease = undefined;
      this.giveBack(lease);
      return undefined;
    }
    lease.free -= amount;
    if (lease.free < lease.size / 2 && !slots.refill) void this.reserveAhead(keyId, keyLimit, amount);
    return { id: lease.id, keyId, amount, ofLease: true };
  }

  /** The next lease, asked for while the current one still has half its room. */
  private async reserveAhead(keyId: string, keyLimit: number | null, amount: number): Promise<void> {
    const slots = this.leaseState(keyId);
    const askedAt = performance.now();
    const asked = this.hold({ keyId, keyLimit, amount: 0 }, leaseWanted(slots, askedAt, amount), askedAt);
    slots.refill = asked;
    const outcome = await asked.catch(() => undefined);
    if (slots.refill === asked) slots.refill = undefined;
    // Too close to a limit for a lease: the empty hold it got instead goes at once.
    if (outcome && 'id' in outcome && !outcome.ofLease) void this.release(outcome).catch(() => undefined);
  }

  /**
   * Holds `wanted` for the key in Redis when it is small beside what is left (a lease, whose room
   * beyond this request's amount serves the next ones), else just the amount.
   */
  private async hold(
    { keyId, keyLimit, amount }: { keyId: string; keyLimit: number | null; amount: number },
    wanted: number,
    askedAt: number,
  ): Promise<Reservation | SpendRefusal> {
    const id = randomUUID();
    const keys = this.keys(keyId);
    const epoch = this.leaseEpoch;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const outcome = (await RESERVE.run(this.redis.commands, keys, [
          id,
          keyId,
          amount,
          keyLimit ?? '',
          HOLD_TTL_MS,
          Math.max(wanted, amount),
        ])) as string[];
        if (outcome[0] === 'held') {
          const held = Number(outcome[1]);
          if (held - amount <= EPSILON) {
            if (wanted - amount > EPSILON) this.leaseState(keyId).declinedUntil = askedAt + SPEND_LEASE_MS;
            return { id, keyId, amount };
          }
          // Ends SPEND_LEASE_MS after it was asked for; parts taken until then settle whenever their requests end.
          const lease: SpendLease = {
            id,
            keyId,
            keyLimit,
            free: held - amount,
            size: held,
            endsAt: askedAt + SPEND_LEASE_MS,
          };
          // Leases were retired while this one was on its way (the account changed): its room goes back at once.
          if (epoch === this.leaseEpoch) this.keep(lease);
          else this.giveBack(lease);
          return { id, keyId, amount, ofLease: true };
        }
        if (outcome[0] === 'refused')
          return { refused: outcome[1] as SpendLimit, available: Math.max(0, Number(outcome[2])) };
        const spent = await this.stored(keyId);
        await SYNC.run(
          this.redis.commands,
          [keys[0], keys[1]],
          [spent.balance, spent.accountLimit ?? '', spent.accountSpent, spent.keySpent, RESYNC_MS],
        );
      }
    } catch (error) {
      throw teamStoreUnavailable('the spending limits', error);
    }
    throw teamStoreUnavailable('the spending limits', new Error('the spend counters vanished three times in a row'));
  }

  /** Makes `lease` the key's current one; a lease it replaces gives back what it has left. */
  private keep(lease: SpendLease): void {
    const slots = this.leaseState(lease.keyId);
    if (slots.lease) this.giveBack(slots.lease);
    slots.lease = lease;
  }

  private leaseState(keyId: string): LeaseState {
    let slots = this.leases.get(keyId);
    if (!slots) {
      slots = { lease: undefined, refill: undefined, size: 1, lastAskedAt: -Infinity, declinedUntil: -Infinity };
      this.leases.set(keyId, slots);
    }
    return slots;
  }

  /** What a lease still has goes back to every instance (queued with this turn's settlements). */
  private giveBack(lease: SpendLease): void {
    const unused = lease.free;
    lease.free = 0;
    if (unused > EPSILON)
      void this.settle({ id: lease.id, keyId: lease.keyId, amount: unused, ofLease: true }, 0, true).catch(
        () => undefined,
      );
  }

  /** Every lease gives back what it has left: the account changed, or the instance is stopping. */
  retireLeases(): void {
    this.leaseEpoch++;
    for (const slots of this.leases.values()) {
      if (slots.lease) this.giveBack(slots.lease);
      slots.lease = undefined;
    }
  }

  /**
   * The balance every instance sees: the shared counter, which each settlement on any instance debits
   * (seeded from the database when missing). Undefined while Redis does not answer, so the caller
   * falls back to its own count (an account page stays readable during an outage).
   */
  async sharedBalance(keyId: string): Promise<number | undefined> {
    const keys = this.keys(keyId);
    // Sent first on the same connection, so this instance's own answered requests are in what it reads.
    this.sendSettlements();
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const balance = await this.redis.commands.hget(keys[0], 'balance');
        if (balance !== null) return Number(balance);
        const spent = await this.stored(keyId);
        await SYNC.run(
          this.redis.commands,
          [keys[0], keys[1]],
          [spent.balance, spent.accountLimit ?? '', spent.accountSpent, spent.keySpent, RESYNC_MS],
        );
      }
    } catch {
      return undefined;
    }
    return undefined;
  }

  /**
   * Queued, then sent with the other queued settlements in one script call: under load, one Redis
   * command for many answers instead of one each. A lease part waits up to LEASE_SETTLE_DELAY_MS;
   * anything that frees room (`freesRoom`) goes at the end of this turn of the event loop.
   */
  settle(reservation: Reservation, actualCost: number, freesRoom = !reservation.ofLease): Promise<void> {
    return new Promise((settled, failed) => {
      this.settlements.push({ reservation, cost: actualCost, settled, failed });
      if (freesRoom && this.sendScheduled !== 'turn') {
        clearTimeout(this.sendTimer);
        this.sendScheduled = 'turn';
        setImmediate(() => this.sendSettlements());
      } else if (this.sendScheduled === undefined) {
        this.sendScheduled = 'delay';
        this.sendTimer = setTimeout(() => this.sendSettlements(), LEASE_SETTLE_DELAY_MS);
      }
    });
  }

  /** Sends the settlements still queued and waits for Redis to take them (before the connection closes). */
  async flush(): Promise<void> {
    this.retireLeases();
    this.sendSettlements();
    await Promise.allSettled(this.inFlight);
  }

  private sendSettlements(): void {
    clearTimeout(this.sendTimer);
    this.sendScheduled = undefined;
    const queued = this.settlements;
    if (queued.length === 0) return;
    this.settlements = [];
    for (let start = 0; start < queued.length; start += SETTLEMENTS_PER_CALL)
      this.sendBatch(queued.slice(start, start + SETTLEMENTS_PER_CALL));
  }

  /** KEYS as SETTLE reads them: the account, the first key's counter, the four hold keys, then the other keys' counters. */
  private sendBatch(batch: readonly Settlement[]): void {
    const [account, , ...holds] = this.keys('');
    const keys = [account, '', ...holds];
    const counterIndex = new Map<string, number>();
    const args: (string | number)[] = [];
    for (const { reservation, cost } of batch) {
      let index = counterIndex.get(reservation.keyId);
      if (index === undefined) {
        const counter = this.keys(reservation.keyId)[1];
        if (keys[1] === '') keys[1] = counter;
        else keys.push(counter);
        index = keys[1] === counter ? 2 : keys.length;
        counterIndex.set(reservation.keyId, index);
      }
      args.push(reservation.id, cost, index, reservation.ofLease ? reservation.amount : '');
    }
    const sent = SETTLE.run(this.redis.commands, keys, args).then(
      () => batch.forEach(({ settled }) => settled()),
      (error: unknown) => batch.forEach(({ failed }) => failed(error)),
    );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  async release(reservation: Reservation): Promise<void> {
    await this.settle(reservation, 0);
  }

  /** The account's balance or limit changed in the database: every instance reads the counters from it again. */
  async forgetCommitted(): Promise<void> {
    this.retireLeases();
    await this.redis.commands.del(`${this.redis.prefix}spend:account`);
  }
}
