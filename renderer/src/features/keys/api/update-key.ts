import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { KeyChanges } from '../../../../../gateway/src/api/account/account-schemas';
import type { PublicKey } from '../../../lib/gateway-types';
import { keysQueryOptions } from './list-keys';

/** null removes a limit. */
export type { KeyChanges };

export const updateKey = ({ id, changes }: { id: string; changes: KeyChanges }): Promise<PublicKey> =>
  sendJson('PATCH', `/account/keys/${encodeURIComponent(id)}`, changes);

export function useUpdateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey }),
  });
}
