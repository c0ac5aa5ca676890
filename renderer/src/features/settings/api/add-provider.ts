import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { ProviderInput, ProviderSetting } from '../settings-types';
import { providerCheckQueryOptions } from './test-provider';
import { useInvalidateRoutes } from './use-invalidate-routes';

export const addProvider = (provider: ProviderInput & { id: string }): Promise<ProviderSetting> =>
  sendJson('POST', '/settings/providers', provider);

export function useAddProvider() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: addProvider,
    onSuccess: async (provider) => {
      // A test of an earlier provider of that id says nothing about this one.
      await queryClient.resetQueries({ queryKey: providerCheckQueryOptions(provider.id).queryKey, exact: true });
      await invalidate();
    },
  });
}
