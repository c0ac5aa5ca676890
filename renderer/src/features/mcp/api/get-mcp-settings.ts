import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/gateway-client';
import type { McpServerSettings } from '../mcp-types';

/** The entries as the console edits them (secrets by name only). */
export const getMcpSettings = (): Promise<McpServerSettings> => getJson('/settings/mcp-servers');

export const mcpSettingsQueryOptions = () => queryOptions({ queryKey: ['mcp', 'settings'], queryFn: getMcpSettings });

export const useMcpSettings = () => useQuery(mcpSettingsQueryOptions());
