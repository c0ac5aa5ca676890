import { useMutation } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { McpServerInput, McpServerSetting } from '../mcp-types';
import { mcpSettingsPath } from './mcp-path';
import { useInvalidateMcp } from './use-invalidate-mcp';

/** Replaces an entry; an empty env or header value keeps the one the gateway has. */
export const editMcpServer = ({ id, server }: { id: string; server: McpServerInput }): Promise<McpServerSetting> =>
  sendJson('PUT', mcpSettingsPath(id), server);

export function useEditMcpServer() {
  const invalidate = useInvalidateMcp();
  return useMutation({ mutationFn: editMcpServer, onSuccess: invalidate });
}
