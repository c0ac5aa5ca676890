import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import { mcpSettingsPath } from './mcp-path';
import { useInvalidateMcp } from './use-invalidate-mcp';

/** Stops the server and removes its entry; one from the config file stays removed until it is reset. */
export const deleteMcpServer = (id: string): Promise<{ id: string }> =>
  getJson(mcpSettingsPath(id), { method: 'DELETE' });

export function useDeleteMcpServer() {
  const invalidate = useInvalidateMcp();
  return useMutation({ mutationFn: deleteMcpServer, onSuccess: invalidate });
}
