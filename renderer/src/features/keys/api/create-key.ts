import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postJson } from '../../../lib/gateway-client';
import type { KeyRole, PublicKey } from '../../../lib/gateway-types';
import { keysQueryOptions } from './list-keys';

export interface CreateKeyRequest {
  name: string;
  role: KeyRole;
  spend_limit?: number | null;
  rpm_limit?: number | null;
}

/** The created key with its full secret, which the gateway returns this once. */
export type CreatedKey = PublicKey & { key: string };

export const createKey = (request: CreateKeyRequest): Promise<CreatedKey> => postJson('/account/keys', request);

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey }),
  });
}
