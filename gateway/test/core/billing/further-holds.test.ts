import { describe, expect, it } from 'vitest';
import type { AccountService } from '../../../src/core/account/account-service.js';
import { BillingService, RequestBilling } from '../../../src/core/billing/billing-service.js';
import type { Reservation } from '../../../src/core/billing/spend-reservations.js';
import type { UsageLedger } from '../../../src/core/billing/usage-ledger.js';
import type { ModelRegistry, ModelRoute } from '../../../src/core/routing/model-registry.js';
import type { ApiKeyRecord } from '../../../src/store/keys-repository.js';

const route = {
  id: 'priced',
  fallbacks: [],
  pricing: { input_per_million: 0, output_per_million: 0, per_request: 0.5 },
} as unknown as ModelRoute;
const key = { id: 'key-1', spend_limit: 10 } as ApiKeyRecord;
const turn = { messages: [{ role: 'user', content: 'hi' }] };

/** Accounts whose reservations answer when the test says, recording what was held and let go. */
function accounts() {
  const pending: ((reservation: Reservation) => void)[] = [];
  const released: string[] = [];
  let issued = 0;
  const service = {
    reserve: (_key: ApiKeyRecord, amount: number) =>
      new Promise<Reservation>((resolve) => pending.push(() => resolve({ id: `r${++issued}`, keyId: key.id, amount }))),
    settle: async (reservation: Reservation) => void released.push(reservation.id),
    release: async (reservation: Reservation) => void released.push(reservation.id),
  } as unknown as AccountService;
  const answerNext = () => pending.shift()!({} as Reservation);
  return { service, released, answerNext };
}

describe('further holds of a request', () => {
  it('lets go of a further hold that arrives after the request was settled', async () => {
    const { service, released, answerNext } = accounts();
    const billing = new BillingService(service, {} as UsageLedger, {} as ModelRegistry, 100, () => undefined);
    const bill = new RequestBilling();
    const first = billing.reserve(bill, key, { model: 'priced', ...turn });
    answerNext();
    await first;
    bill.charge(route, { prompt_tokens: 1, completion_tokens: 1 });
    const further = bill.reserveFurther(route, turn);
    // The client leaves while the further hold is on its way: the request settles first.
    billing.release(bill, 0.5);
    answerNext();
    await further;
    await new Promise((resolve) => setImmediate(resolve));
    expect(released.sort()).toEqual(['r1', 'r2']);
  });
});
