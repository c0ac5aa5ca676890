import { useMutation } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { McpServerSetting } from '../mcp-types';
import { mcpSettingsPath } from './mcp-path';
import { useInvalidateMcp } from './use-invalidate-mcp';

/** Drops the console's change to a config-file server: the file's entry applies again. */
export const resetMcpServer = (id: string): Promise<McpServerSetting> =>
  getJson(`${mcpSettingsPath(id)}/reset`, { method: 'POST' });

export function useResetMcpServer() {
  const invalidate = useInvalidateMcp();
  return useMutation({ mutationFn: resetMcpServer, onSuccess: invalidate });
}
