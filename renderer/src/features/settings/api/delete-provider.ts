import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { settingsPath } from './settings-path';
import { useInvalidateRoutes } from './use-invalidate-routes';

/** Stops a provider; one from the config file stays hidden until it is reset. */
export const deleteProvider = (id: string): Promise<{ id: string }> =>
  getJson(settingsPath('providers', id), { method: 'DELETE' });

export function useDeleteProvider() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: deleteProvider, onSuccess: invalidate });
}
