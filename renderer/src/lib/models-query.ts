import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './gateway-client';
import type { Capability, GatewayModel, ListResponse } from './gateway-types';

export const fetchModels = (): Promise<ListResponse<GatewayModel>> => getJson('/models');

export const modelsQueryOptions = () =>
  queryOptions({ queryKey: ['models'], queryFn: fetchModels, staleTime: 30_000 });

/** The usable (not archived) models that offer `capability`. */
export function useModelsWith(capability: Capability) {
  return useQuery({
    ...modelsQueryOptions(),
    select: (list) => list.data.filter((m) => !m.archived && m.capabilities.includes(capability)),
  });
}
