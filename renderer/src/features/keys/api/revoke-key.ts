import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { PublicKey } from '../../../lib/gateway-types';
import { useSessionStore } from '../../../lib/session-store';
import { keysQueryOptions } from './list-keys';

export const revokeKey = (id: string): Promise<PublicKey> =>
  getJson(`/account/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** `signOutReason` is set when the key being revoked is the console's own: it signs out with that reason at once, instead of failing its next call. */
export function useRevokeKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; signOutReason?: string }) => revokeKey(id),
    onSuccess: (_key, { signOutReason }) => {
      if (signOutReason) useSessionStore.getState().signOut(signOutReason);
      else return queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey });
    },
  });
}
