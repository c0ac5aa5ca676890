import { useMutation } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { RouteInput, RouteSetting } from '../settings-types';
import { settingsPath } from './settings-path';
import { useInvalidateRoutes } from './use-invalidate-routes';

/** Adds the route or replaces it whole. */
export const saveRoute = ({ id, route }: { id: string; route: RouteInput }): Promise<RouteSetting> =>
  sendJson('PUT', settingsPath('routes', id), route);

export function useSaveRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: saveRoute, onSuccess: invalidate });
}
