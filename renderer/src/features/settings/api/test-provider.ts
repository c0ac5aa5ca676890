import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ProviderCheck } from '../settings-types';
import { settingsPath } from './settings-path';
import { useInvalidateRoutes } from './use-invalidate-routes';

/** A real one-token call to the provider. */
export const testProvider = (id: string): Promise<ProviderCheck> =>
  getJson(`${settingsPath('providers', id)}/test`, { method: 'POST' });

/**
 * This session's last test of a provider: the test's answer, kept in the query cache and never
 * fetched, so it outlives the row that ran it (a refetch, an edit, a visit to another page) and
 * does not depend on which gateway instance answers GET /settings.
 */
export const providerCheckQueryOptions = (id: string) =>
  queryOptions<ProviderCheck>({
    queryKey: ['settings', 'provider-checks', id],
    queryFn: skipToken,
    staleTime: Infinity,
    gcTime: Infinity,
  });

export const useProviderCheck = (id: string): ProviderCheck | undefined => useQuery(providerCheckQueryOptions(id)).data;

export function useTestProvider() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: testProvider,
    onSuccess: async (check, id) => {
      queryClient.setQueryData(providerCheckQueryOptions(id).queryKey, check);
      // A test changes the provider's health on every page: read it again.
      await invalidate();
    },
  });
}
