import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { PublicKey } from '../../../lib/gateway-types';
import { keysQueryOptions } from './list-keys';

export const revokeKey = (id: string): Promise<PublicKey> => getJson(`/account/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useRevokeKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey }),
  });
}
