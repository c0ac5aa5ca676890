import { randomUUID } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RedisSpendReservations } from '../../../src/core/billing/redis-spend-reservations.js';
import {
  LocalSpendReservations,
  type CommittedSpend,
  type Reservation,
} from '../../../src/core/billing/spend-reservations.js';
import { openRedis } from '../../../src/store/redis/redis-connection.js';
import { dropRedisPrefix, TEST_REDIS_URL } from '../../support/team-of-gateways.js';
import { testRedisConnections } from '../../support/test-redis.js';

function reservations(committed: Partial<CommittedSpend> = {}) {
  const state: CommittedSpend = { balance: 100, accountLimit: null, accountSpent: 0, keySpent: 0, ...committed };
  const spent = {
    balance: () => state.balance,
    accountLimit: () => state.accountLimit,
    accountSpent: () => state.accountSpent,
    keySpent: () => state.keySpent,
  };
  return { state, service: new LocalSpendReservations(spent) };
}

describe('LocalSpendReservations', () => {
  it('lets reservations in flight fill a key limit, then refuses naming it; settling frees the hold', async () => {
    const { state, service } = reservations();
    const held: Reservation[] = [];
    for (let i = 0; i < 5; i++)
      held.push((await service.reserve({ keyId: 'k', keyLimit: 1, amount: 0.2 })) as Reservation);
    expect(held.every((reservation) => 'id' in reservation)).toBe(true);
    expect(await service.reserve({ keyId: 'k', keyLimit: 1, amount: 0.2 })).toEqual({
      refused: 'key_limit',
      available: expect.closeTo(0, 9),
    });
    // Another key is not held back by this key's limit.
    expect('id' in (await service.reserve({ keyId: 'other', keyLimit: 1, amount: 0.2 }))).toBe(true);

    await service.release(held[0]);
    expect('id' in (await service.reserve({ keyId: 'k', keyLimit: 1, amount: 0.2 }))).toBe(true);
    state.keySpent = 0.3;
    await service.settle(held[1]);
    // 0.3 spent, 4 × 0.2 held: 1.1 > 1.
    expect(await service.reserve({ keyId: 'k', keyLimit: 1, amount: 0.1 })).toMatchObject({ refused: 'key_limit' });
    await service.settle(held[1]);
    expect(service.reserved).toBeCloseTo(1, 9);
  });

  it('checks the balance and the account limit across all keys', async () => {
    const { service } = reservations({ balance: 1, accountLimit: 0.5, accountSpent: 0.2 });
    expect('id' in (await service.reserve({ keyId: 'a', keyLimit: null, amount: 0.3 }))).toBe(true);
    expect(await service.reserve({ keyId: 'b', keyLimit: null, amount: 0.01 })).toMatchObject({
      refused: 'account_limit',
    });
    const broke = reservations({ balance: 0.05 }).service;
    expect(await broke.reserve({ keyId: 'a', keyLimit: null, amount: 0.1 })).toEqual({
      refused: 'balance',
      available: 0.05,
    });
  });

  it('lets a free request through while something is left, and refuses it once nothing is', async () => {
    expect(
      'id' in (await reservations({ balance: 0.01 }).service.reserve({ keyId: 'a', keyLimit: null, amount: 0 })),
    ).toBe(true);
    expect(await reservations({ balance: 0 }).service.reserve({ keyId: 'a', keyLimit: null, amount: 0 })).toMatchObject(
      { refused: 'balance' },
    );
    expect(await reservations({ keySpent: 2 }).service.reserve({ keyId: 'a', keyLimit: 2, amount: 0 })).toMatchObject({
      refused: 'key_limit',
    });
  });
});

describe('RedisSpendReservations', () => {
  it('settles the answers of one turn in one call: every hold goes, each key and the account are charged exactly their costs', async () => {
    const {
      connections: [redis],
      prefix,
      scriptCalls,
    } = await testRedisConnections();
    const stored: CommittedSpend = { balance: 100, accountLimit: null, accountSpent: 0, keySpent: 1 };
    const service = new RedisSpendReservations(redis, async () => stored);
    const held: Reservation[] = [];
    for (const keyId of ['a', 'b', 'c', 'a', 'b', 'a'])
      held.push((await service.reserve({ keyId, keyLimit: 10, amount: 0.5 })) as Reservation);
    const before = scriptCalls();
    await Promise.all(
      held.map((reservation, i) =>
        i === 5 ? service.release(reservation) : service.settle(reservation, 0.1 * (i + 1)),
      ),
    );
    expect(scriptCalls() - before).toBe(1);
    const read = (key: string) => redis.commands.get(`${prefix}spend:key:${key}`).then(Number);
    expect(await read('a')).toBeCloseTo(1 + 0.1 + 0.4, 9);
    expect(await read('b')).toBeCloseTo(1 + 0.2 + 0.5, 9);
    expect(await read('c')).toBeCloseTo(1 + 0.3, 9);
    expect(Number(await redis.commands.hget(`${prefix}spend:account`, 'balance'))).toBeCloseTo(100 - 1.5, 9);
    expect(Number(await redis.commands.hget(`${prefix}spend:account`, 'spent'))).toBeCloseTo(1.5, 9);
    expect(await redis.commands.zcard(`${prefix}spend:held`)).toBe(0);
    expect(Number((await redis.commands.hget(`${prefix}spend:held:sum`, '*')) ?? 0)).toBeCloseTo(0, 9);
    expect(await redis.commands.hlen(`${prefix}spend:held:sum`)).toBeLessThanOrEqual(1);
  });
  it('sends the settlements still queued before the connection closes (flush), so no hold lingers until it expires', async () => {
    const prefix = `sy-test-${randomUUID()}:`;
    onTestFinished(() => dropRedisPrefix(TEST_REDIS_URL, prefix));
    const redis = await openRedis(TEST_REDIS_URL, prefix);
    const service = new RedisSpendReservations(redis, async () => ({
      balance: 10,
      accountLimit: null,
      accountSpent: 0,
      keySpent: 0,
    }));
    const held = (await service.reserve({ keyId: 'a', keyLimit: null, amount: 1 })) as Reservation;
    const settled = service.settle(held, 0.25);
    await service.flush();
    await redis.close();
    await settled;
    const other = await openRedis(TEST_REDIS_URL, prefix);
    try {
      expect(await other.commands.zcard(`${prefix}spend:held`)).toBe(0);
      expect(Number(await other.commands.hget(`${prefix}spend:account`, 'balance'))).toBeCloseTo(9.75, 9);
    } finally {
      await other.close();
    }
  });

  it('serves a busy key from leases: a few script calls for hundreds of requests, and the counters still exact', async () => {
    const {
      connections: [redis],
      prefix,
      scriptCalls,
    } = await testRedisConnections();
    const service = new RedisSpendReservations(redis, async () => ({
      balance: 1000,
      accountLimit: null,
      accountSpent: 0,
      keySpent: 0,
    }));
    await service
      .reserve({ keyId: 'busy', keyLimit: null, amount: 0.01 })
      .then((held) => service.release(held as Reservation));
    const before = scriptCalls();
    const settled: Promise<void>[] = [];
    for (let i = 0; i < 400; i++) {
      const held = await service.reserve({ keyId: 'busy', keyLimit: null, amount: 0.01 });
      expect('id' in held).toBe(true);
      settled.push(service.settle(held as Reservation, 0.005));
    }
    await service.flush();
    await Promise.all(settled);
    // Without leases: 400 reservations and the settlements' calls. With them: one lease per up to 64 requests.
    expect(scriptCalls() - before).toBeLessThan(60);
    expect(Number(await redis.commands.hget(`${prefix}spend:account`, 'balance'))).toBeCloseTo(1000 - 2, 9);
    expect(Number(await redis.commands.get(`${prefix}spend:key:busy`))).toBeCloseTo(2, 9);
    expect(await redis.commands.zcard(`${prefix}spend:held`)).toBe(0);
    expect(Number((await redis.commands.hget(`${prefix}spend:held:sum`, '*')) ?? 0)).toBeCloseTo(0, 9);
  });

  it('gathers the settlements of lease parts over turns into one call; one of a request held on its own goes at the end of its turn', async () => {
    const {
      connections: [redis],
      prefix,
      scriptCalls,
    } = await testRedisConnections();
    const service = new RedisSpendReservations(redis, async () => ({
      balance: 1000,
      accountLimit: null,
      accountSpent: 0,
      keySpent: 0,
    }));
    await service
      .reserve({ keyId: 'busy', keyLimit: null, amount: 0.01 })
      .then((held) => service.release(held as Reservation));
    const parts: Reservation[] = [];
    for (let i = 0; i < 10; i++)
      parts.push((await service.reserve({ keyId: 'busy', keyLimit: null, amount: 0.01 })) as Reservation);
    expect(parts.every((part) => part.ofLease)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    // Ten answers in ten turns of the event loop: one script call.
    let before = scriptCalls();
    const settled: Promise<void>[] = [];
    for (const part of parts) {
      settled.push(service.settle(part, 0.005));
      await nextTurn();
    }
    await Promise.all(settled);
    expect(scriptCalls() - before).toBe(1);

    // A request held on its own takes the gathered parts with it at the end of its turn.
    const alone = (await service.reserve({ keyId: 'other', keyLimit: null, amount: 0.01 })) as Reservation;
    expect(alone.ofLease).toBeUndefined();
    const part = (await service.reserve({ keyId: 'busy', keyLimit: null, amount: 0.01 })) as Reservation;
    before = scriptCalls();
    const partDone = service.settle(part, 0.005);
    await nextTurn();
    expect(scriptCalls() - before).toBe(0);
    const aloneDone = service.settle(alone, 0.01);
    await nextTurn();
    expect(scriptCalls() - before).toBe(1);
    await Promise.all([partDone, aloneDone]);
    expect(Number(await redis.commands.hget(`${prefix}spend:account`, 'balance'))).toBeCloseTo(
      1000 - 11 * 0.005 - 0.01,
      9,
    );
  });

  it('never lets instances with leases hold more than a key limit, and gives what leases have left back when they stop', async () => {
    const { connections } = await testRedisConnections(3);
    const stored = async (): Promise<CommittedSpend> => ({
      balance: 10_000,
      accountLimit: null,
      accountSpent: 0,
      keySpent: 0,
    });
    const [a, b, late] = connections.map((redis) => new RedisSpendReservations(redis, stored));
    // A key limit of 100, requests of 1: two instances ask 80 times each, at once, and keep every hold.
    const ask = async (service: RedisSpendReservations) => {
      let held = 0;
      for (let i = 0; i < 80; i++)
        if ('id' in (await service.reserve({ keyId: 'k', keyLimit: 100, amount: 1 }))) held++;
      return held;
    };
    const [heldByA, heldByB] = await Promise.all([ask(a), ask(b)]);
    expect(heldByA + heldByB).toBeLessThanOrEqual(100);
    await Promise.all([a.flush(), b.flush()]);
    // What the leases had beyond their requests is back: the rest of the limit fits, not a cent more.
    const rest = 100 - heldByA - heldByB;
    if (rest > 0) expect('id' in (await late.reserve({ keyId: 'k', keyLimit: 100, amount: rest }))).toBe(true);
    expect(await late.reserve({ keyId: 'k', keyLimit: 100, amount: 0.5 })).toMatchObject({ refused: 'key_limit' });
  });

  it('near a limit holds every request on its own, all at once, and exactly to the limit', async () => {
    const {
      connections: [redis],
    } = await testRedisConnections();
    const service = new RedisSpendReservations(redis, async () => ({
      balance: 1000,
      accountLimit: null,
      accountSpent: 0,
      keySpent: 0,
    }));
    let inFlight = 0;
    let peak = 0;
    const evalsha = redis.commands.evalsha.bind(redis.commands);
    redis.commands.evalsha = (async (...args: Parameters<typeof evalsha>) => {
      peak = Math.max(peak, ++inFlight);
      try {
        return await evalsha(...args);
      } finally {
        inFlight--;
      }
    }) as typeof evalsha;
    // A key limit of 10 and requests of 0.5: a lease of even two requests would be a tenth of the room.
    const outcomes = await Promise.all(
      Array.from({ length: 21 }, () => service.reserve({ keyId: 'near', keyLimit: 10, amount: 0.5 })),
    );
    expect(outcomes.filter((outcome) => 'id' in outcome)).toHaveLength(20);
    expect(outcomes.filter((outcome) => 'refused' in outcome)).toEqual([{ refused: 'key_limit', available: 0 }]);
    // Not one after another behind a lease that Redis would not grant.
    expect(peak).toBeGreaterThanOrEqual(10);
  });

  it('does not keep a lease that was on its way when the leases were retired (the account changed)', async () => {
    const {
      connections: [redis],
      prefix,
      scriptCalls,
    } = await testRedisConnections();
    const service = new RedisSpendReservations(redis, async () => ({
      balance: 1000,
      accountLimit: null,
      accountSpent: 0,
      keySpent: 0,
    }));
    const first = (await service.reserve({ keyId: 'k', keyLimit: null, amount: 1 })) as Reservation;
    expect(first.ofLease).toBeUndefined();
    // Asked again at once: this one asks for a lease of two requests' worth.
    const second = service.reserve({ keyId: 'k', keyLimit: null, amount: 1 });
    service.retireLeases();
    expect(((await second) as Reservation).ofLease).toBe(true);
    const before = scriptCalls();
    const third = (await service.reserve({ keyId: 'k', keyLimit: null, amount: 1 })) as Reservation;
    expect(scriptCalls()).toBeGreaterThan(before);
    await service.flush();
    // What is held once the leases are back is the three requests' amounts.
    expect(third.amount).toBe(1);
    expect(Number(await redis.commands.hget(`${prefix}spend:held:sum`, '*'))).toBeCloseTo(3, 9);
  });
});
