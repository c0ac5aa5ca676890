import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { McpServerList } from '../mcp-types';

/** The servers with their state and tools; the gateway starts those not started yet. */
export const listMcpServers = (): Promise<McpServerList> => getJson('/v1/mcp/servers');

export const mcpServersQueryOptions = () => queryOptions({ queryKey: ['mcp', 'servers'], queryFn: listMcpServers });

export const useMcpServers = () => useQuery(mcpServersQueryOptions());
