import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { ProviderSetting } from '../settings-types';
import { settingsPath } from './settings-path';
import { useInvalidateRoutes } from './use-invalidate-routes';

/** Drops the console's change to a config-file provider, or restores a removed one: the file's entry applies again. */
export const resetProvider = (id: string): Promise<ProviderSetting> =>
  getJson(`${settingsPath('providers', id)}/reset`, { method: 'POST' });

export function useResetProvider() {
  const invalidate = useInvalidateRoutes();
  return useMutation({ mutationFn: resetProvider, onSuccess: invalidate });
}
