import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ModelConfig } from '../../../../../gateway/src/config/config-schema';
import type { ProviderCheck } from '../../../../../gateway/src/core/settings/provider-check';
import type { ProviderSetting, RouteSetting, ServerSetting } from '../../../../../gateway/src/core/settings/settings-service';
import { getJson, sendJson } from '../../../lib/gateway-client';

export type { ProviderCheck, ProviderSetting, RouteSetting, ServerSetting };
export type RouteInput = Omit<ModelConfig, 'id'>;

export interface Settings {
  providers: ProviderSetting[];
  routes: RouteSetting[];
  server: ServerSetting;
}

const path = (kind: 'routes' | 'providers', id: string) => `/settings/${kind}/${encodeURIComponent(id)}`;

export const settingsQueryOptions = () => queryOptions({ queryKey: ['settings'], queryFn: () => getJson<Settings>('/settings') });

export const useSettings = () => useQuery(settingsQueryOptions());

/** Route changes also change what /models lists. */
function useInvalidateRoutes() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['settings'] }), queryClient.invalidateQueries({ queryKey: ['models'] })]);
}

export function useSaveRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: ({ id, route }: { id: string; route: RouteInput }) => sendJson<RouteSetting>('PUT', path('routes', id), route), onSuccess: invalidate });
}

export function useDeleteRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: (id: string) => getJson<{ id: string }>(path('routes', id), { method: 'DELETE' }), onSuccess: invalidate });
}

export function useResetRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: (id: string) => getJson<RouteSetting>(`${path('routes', id)}/reset`, { method: 'POST' }), onSuccess: invalidate });
}

export const useTestProvider = () => useMutation({ mutationFn: (id: string) => getJson<ProviderCheck>(`${path('providers', id)}/test`, { method: 'POST' }) });
