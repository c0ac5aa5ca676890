import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from './gateway-client';
import type { McpServerListView } from '../../../gateway/src/api/mcp/mcp-schemas';

/** GET /v1/mcp/servers (Owner): the servers with their state and tools; the gateway starts those not started yet. */
export const listMcpServers = (): Promise<McpServerListView> => getJson('/v1/mcp/servers');

export const mcpServersQueryOptions = () => queryOptions({ queryKey: ['mcp', 'servers'], queryFn: listMcpServers });

/** `enabled: false` until the servers are needed: listing them starts every stdio server. */
export const useMcpServers = (enabled = true) => useQuery({ ...mcpServersQueryOptions(), enabled });
