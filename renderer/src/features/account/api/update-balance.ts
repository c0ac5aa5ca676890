import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountQueryOptions } from '../../../lib/account-query';
import { sendJson } from '../../../lib/gateway-client';
import type { Balance } from '../../../lib/gateway-types';

export interface BalanceChanges {
  amount?: number;
  /** null removes the account's spending limit. */
  limit?: number | null;
}

export const updateBalance = (changes: BalanceChanges): Promise<Balance> => sendJson('PATCH', '/account/balance', changes);

export function useUpdateBalance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBalance,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueryOptions().queryKey }),
  });
}
