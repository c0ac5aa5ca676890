/**
 * What McpConnection uses of the MCP SDK, loaded by its first start: the SDK and its zod schemas
 * took about a tenth of a second of every gateway start, and most gateways run no MCP server.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export {
  ErrorCode,
  McpError,
  ResultSchema,
  ToolListChangedNotificationSchema,
  ToolSchema,
} from '@modelcontextprotocol/sdk/types.js';
export { StdioProcessTransport } from './stdio-process-transport.js';
