import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getJson } from './gateway-client';
import type { Capability, GatewayModel, ListResponse } from './gateway-types';

export const fetchModels = (): Promise<ListResponse<GatewayModel>> => getJson('/models');

export const modelsQueryOptions = () => queryOptions({ queryKey: ['models'], queryFn: fetchModels, staleTime: 30_000 });

/** The usable (not archived) models that offer `capability`. */
export function useModelsWith(capability: Capability) {
  return useQuery({
    ...modelsQueryOptions(),
    select: (list) => list.data.filter((m) => !m.archived && m.capabilities.includes(capability)),
  });
}

/**
 * Re-reads the models after a request that ran one: the request may have loaded it (cold to
 * ready) or found it broken, and the pickers should say so now rather than when the list goes stale.
 */
export function useRefreshModelStates(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: modelsQueryOptions().queryKey }), [queryClient]);
}
