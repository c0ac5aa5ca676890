import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { ServerSetting, ServerSettingsChange } from '../settings-types';
import { settingsQueryOptions } from './get-settings';

/** Changes only the server settings it names; they apply without a restart. */
export const changeServer = (change: ServerSettingsChange): Promise<ServerSetting> =>
  sendJson('PATCH', '/settings/server', change);

export function useChangeServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeServer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsQueryOptions().queryKey }),
  });
}
