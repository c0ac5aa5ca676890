import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { RouteSetting } from '../settings-types';
import { settingsPath } from './settings-path';
import { useInvalidateRoutes } from './use-invalidate-routes';

/** Drops the console's change to a config-file route: the file's entry applies again. */
export const resetRoute = (id: string): Promise<RouteSetting> =>
  getJson(`${settingsPath('routes', id)}/reset`, { method: 'POST' });

export function useResetRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: resetRoute, onSuccess: invalidate });
}
