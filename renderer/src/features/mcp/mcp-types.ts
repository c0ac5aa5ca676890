import type {
  McpServerBodyInput,
  McpServerListView,
  McpServerSettingListView,
  McpServerSettingViewType,
  McpToolResultBody,
} from '../../../../gateway/src/api/mcp/mcp-schemas';

/** A server of GET /v1/mcp/servers (renderer/src/lib/mcp-servers-query.ts), from the route's schema. */
export type McpServerStatus = McpServerListView['data'][number];
export type McpTool = McpServerStatus['tools'][number];
/** GET /settings/mcp-servers. */
export type McpServerSettings = McpServerSettingListView;
export type McpServerSetting = McpServerSettingViewType;
export type McpServerInput = McpServerBodyInput;
export type McpToolResult = McpToolResultBody;
