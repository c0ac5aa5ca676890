import type {
  EasyInputMessage,
  ResponseCreateParamsStreaming,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
  Tool,
} from 'openai/resources/responses/responses';

/**
 * The OpenAI Responses API's shapes the playground sends and reads when a chat uses MCP tools, from
 * the official SDK's types: the gateway implements that contract as published.
 */
export type ResponsesRequest = ResponseCreateParamsStreaming & { tools: Tool.Mcp[]; input: ResponseInputItem[] };
export type ResponsesInputMessage = EasyInputMessage;
export type McpApprovalResponse = ResponseInputItem.McpApprovalResponse;
export type McpCallInput = ResponseInputItem.McpCall;
export type { ResponseOutputItem, ResponseStreamEvent };
