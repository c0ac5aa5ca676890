import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountQueryOptions } from '../../../lib/account-query';
import { sendJson } from '../../../lib/gateway-client';
import type { BalanceChanges } from '../../../../../gateway/src/api/account/account-schemas';
import type { Balance } from '../../../lib/gateway-types';

/** `limit: null` removes the account's spending limit. */
export type { BalanceChanges };

export const updateBalance = (changes: BalanceChanges): Promise<Balance> =>
  sendJson('PATCH', '/account/balance', changes);

export function useUpdateBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBalance,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions().queryKey }),
  });
}
