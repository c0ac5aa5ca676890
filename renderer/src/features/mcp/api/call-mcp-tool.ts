import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/gateway-client';
import type { McpToolResult } from '../mcp-types';

interface ToolCall {
  server: string;
  tool: string;
  args: Record<string, unknown>;
}

/** An Owner trying a tool with arguments. */
export const callMcpTool = ({ server, tool, args }: ToolCall): Promise<McpToolResult> =>
  sendJson('POST', `/v1/mcp/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}/call`, {
    arguments: args,
  });

/** This session's last result of a tool, kept in the query cache (never fetched) so it outlives the form. */
export const toolResultQueryOptions = (server: string, tool: string) =>
  queryOptions<McpToolResult>({
    queryKey: ['mcp', 'tool-results', server, tool],
    queryFn: skipToken,
    staleTime: Infinity,
  });

export const useToolResult = (server: string, tool: string): McpToolResult | undefined =>
  useQuery(toolResultQueryOptions(server, tool)).data;

export function useCallMcpTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: callMcpTool,
    onSuccess: (result, call) =>
      queryClient.setQueryData(toolResultQueryOptions(call.server, call.tool).queryKey, result),
  });
}
