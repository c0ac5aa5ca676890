import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ProviderBodyInput,
  ProviderCheckView,
  ProviderSettingView,
  RouteBodyInput,
  RouteSettingView,
  ServerChangeBody,
  ServerSettingView,
  SettingsView,
} from '../../../../../gateway/src/api/settings/settings-schemas';
import { getJson, sendJson } from '../../../lib/gateway-client';
import { useProviderChecksStore } from '../stores/provider-checks-store';

export type ProviderCheck = ProviderCheckView;
export type ProviderInput = ProviderBodyInput;
export type ProviderSetting = ProviderSettingView;
export type RouteSetting = RouteSettingView;
export type ServerSetting = ServerSettingView;
export type ServerSettingsChange = ServerChangeBody;
export type RouteInput = RouteBodyInput;

/** GET /settings, from the route's schema. */
export type Settings = SettingsView;

const path = (kind: 'routes' | 'providers', id: string) => `/settings/${kind}/${encodeURIComponent(id)}`;

export const settingsQueryOptions = () =>
  queryOptions({ queryKey: ['settings'], queryFn: () => getJson<Settings>('/settings') });

export const useSettings = () => useQuery(settingsQueryOptions());

/** Route and provider changes also change what /models lists. */
function useInvalidateRoutes() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['settings'] }),
      queryClient.invalidateQueries({ queryKey: ['models'] }),
    ]);
}

export function useSaveRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: ({ id, route }: { id: string; route: RouteInput }) =>
      sendJson<RouteSetting>('PUT', path('routes', id), route),
    onSuccess: invalidate,
  });
}

export function useDeleteRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (id: string) => getJson<{ id: string }>(path('routes', id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useResetRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (id: string) => getJson<RouteSetting>(`${path('routes', id)}/reset`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}

/** A test's result is kept per provider (stores/provider-checks-store), so the state column can show it. */
export function useTestProvider() {
  const record = useProviderChecksStore((s) => s.record);
  const invalidate = useInvalidateRoutes();
  // A test changes the provider's health on every page: read it again.
  return useMutation({
    mutationFn: (id: string) => getJson<ProviderCheck>(`${path('providers', id)}/test`, { method: 'POST' }),
    onSuccess: async (check, id) => {
      record(id, check);
      await invalidate();
    },
  });
}

export function useAddProvider() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (provider: ProviderInput & { id: string }) =>
      sendJson<ProviderSetting>('POST', '/settings/providers', provider),
    onSuccess: invalidate,
  });
}

export function useEditProvider() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: ({ id, provider }: { id: string; provider: ProviderInput }) =>
      sendJson<ProviderSetting>('PUT', path('providers', id), provider),
    onSuccess: invalidate,
  });
}

export function useDeleteProvider() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (id: string) => getJson<{ id: string }>(path('providers', id), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useResetProvider() {
  const invalidate = useInvalidateRoutes();
  return useMutation({
    mutationFn: (id: string) => getJson<ProviderSetting>(`${path('providers', id)}/reset`, { method: 'POST' }),
    onSuccess: invalidate,
  });
}

export function useChangeServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ServerSettingsChange) => sendJson<ServerSetting>('PATCH', '/settings/server', change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['settings'] }),
  });
}
