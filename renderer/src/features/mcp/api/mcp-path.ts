/** The settings path of one MCP server; its id is encoded as one path segment. */
export const mcpSettingsPath = (id: string): string => `/settings/mcp-servers/${encodeURIComponent(id)}`;
