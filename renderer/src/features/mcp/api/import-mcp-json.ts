import { useMutation } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { McpServerSettings } from '../mcp-types';
import { useInvalidateMcp } from './use-invalidate-mcp';

/** Adds the servers of an mcp.json (`{"mcpServers": {...}}`) as it is; an existing id is replaced. */
export const importMcpJson = (document: unknown): Promise<McpServerSettings> =>
  sendJson('POST', '/settings/mcp-servers/import', document);

export function useImportMcpJson() {
  const invalidate = useInvalidateMcp();
  return useMutation({ mutationFn: importMcpJson, onSuccess: invalidate });
}
