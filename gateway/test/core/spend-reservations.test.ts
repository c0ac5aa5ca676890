import { describe, expect, it } from 'vitest';
import { LocalSpendReservations, type CommittedSpend, type Reservation } from '../../src/core/billing/spend-reservations.js';

function reservations(committed: Partial<CommittedSpend> = {}) {
  const state: CommittedSpend = { balance: 100, accountLimit: null, accountSpent: 0, keySpent: 0, ...committed };
  return { state, service: new LocalSpendReservations(() => state) };
}

describe('LocalSpendReservations', () => {
  it('lets reservations in flight fill a key limit, then refuses naming it; settling frees the hold', async () => {
    const { state, service } = reservations();
    const held: Reservation[] = [];
    for (let i = 0; i < 5; i++) held.push((await service.reserve({ keyId: 'k', keyLimit: 1, amount: 0.2 })) as Reservation);
    expect(held.every((reservation) => 'id' in reservation)).toBe(true);
    expect(await service.reserve({ keyId: 'k', keyLimit: 1, amount: 0.2 })).toEqual({ refused: 'key_limit', available: expect.closeTo(0, 9) });
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
    expect(await service.reserve({ keyId: 'b', keyLimit: null, amount: 0.01 })).toMatchObject({ refused: 'account_limit' });
    const broke = reservations({ balance: 0.05 }).service;
    expect(await broke.reserve({ keyId: 'a', keyLimit: null, amount: 0.1 })).toEqual({ refused: 'balance', available: 0.05 });
  });

  it('lets a free request through while something is left, and refuses it once nothing is', async () => {
    expect('id' in (await reservations({ balance: 0.01 }).service.reserve({ keyId: 'a', keyLimit: null, amount: 0 }))).toBe(true);
    expect(await reservations({ balance: 0 }).service.reserve({ keyId: 'a', keyLimit: null, amount: 0 })).toMatchObject({ refused: 'balance' });
    expect(await reservations({ keySpent: 2 }).service.reserve({ keyId: 'a', keyLimit: 2, amount: 0 })).toMatchObject({ refused: 'key_limit' });
  });
});
