import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { CreatedKey, NewKey } from '../../../../../gateway/src/api/account/account-schemas';
import { keysQueryOptions } from './list-keys';

/** The console always picks the role. */
export type CreateKeyRequest = NewKey & Required<Pick<NewKey, 'role'>>;
/** The created key with its full secret, which the gateway returns this once. */
export type { CreatedKey };

export const createKey = (request: CreateKeyRequest): Promise<CreatedKey> => postJson('/account/keys', request);

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey }),
  });
}
