import type { AccountRepository } from '../../store/account-repository.js';
import type { UsageRepository } from '../../store/usage-repository.js';
import type { CommittedSpend } from './spend-reservations.js';

/** What the database says was spent, read afresh (team mode seeds its shared counters with it). */
export function storedSpend(
  accounts: AccountRepository,
  usage: UsageRepository,
): (keyId: string) => Promise<CommittedSpend> {
  return async (keyId) => {
    const account = await accounts.get();
    if (!account) throw new Error('The account row is missing from the database.');
    return {
      balance: account.balance,
      accountLimit: account.spend_limit,
      accountSpent: await usage.spentTotal(),
      keySpent: await usage.spentByKey(keyId),
    };
  };
}
