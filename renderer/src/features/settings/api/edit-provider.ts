import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { ProviderInput, ProviderSetting } from '../settings-types';
import { settingsPath } from './settings-path';
import { providerCheckQueryOptions } from './test-provider';
import { useInvalidateRoutes } from './use-invalidate-routes';

export const editProvider = ({ id, provider }: { id: string; provider: ProviderInput }): Promise<ProviderSetting> =>
  sendJson('PUT', settingsPath('providers', id), provider);

export function useEditProvider() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: editProvider,
    onSuccess: async (provider) => {
      // The last test was of the provider before the edit (the gateway forgets its record too).
      await queryClient.resetQueries({ queryKey: providerCheckQueryOptions(provider.id).queryKey, exact: true });
      await invalidate();
    },
  });
}
