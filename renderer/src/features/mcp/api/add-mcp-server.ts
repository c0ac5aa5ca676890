import { useMutation } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { McpServerInput, McpServerSetting } from '../mcp-types';
import { useInvalidateMcp } from './use-invalidate-mcp';

export const addMcpServer = (server: McpServerInput & { id: string }): Promise<McpServerSetting> =>
  sendJson('POST', '/settings/mcp-servers', server);

export function useAddMcpServer() {
  const invalidate = useInvalidateMcp();
  return useMutation({ mutationFn: addMcpServer, onSuccess: invalidate });
}
