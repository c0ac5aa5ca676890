import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { settingsPath } from './settings-path';
import { useInvalidateRoutes } from './use-invalidate-routes';

export const deleteRoute = (id: string): Promise<{ id: string }> =>
  getJson(settingsPath('routes', id), { method: 'DELETE' });

export function useDeleteRoute() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: deleteRoute, onSuccess: invalidate });
}
