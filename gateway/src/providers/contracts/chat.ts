import type { ChatMessage, ToolCall, ToolCallDelta } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { ToolChoice, ToolDefinition } from '../../wire/tool-schemas.js';
import type { FinishReason, SamplingParams, TokenUsage } from './sampling.js';

export type { ToolCallDelta };

export interface ChatRequest extends SamplingParams {
  messages: ChatMessage[];
  response_format?: ResponseFormat;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean;
}

export interface ChatChoice {
  index: number;
  message: { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] };
  finish_reason: FinishReason;
}

export interface ChatResult {
  choices: ChatChoice[];
  usage: TokenUsage;
}

/** Streamed chat events; `index` is the choice index. Usage comes once, at the end. */
export type ChatStreamEvent =
  | { type: 'delta'; index: number; content?: string; role?: 'assistant'; tool_calls?: ToolCallDelta[] }
  | { type: 'finish'; index: number; finish_reason: FinishReason }
  | { type: 'usage'; usage: TokenUsage };

export interface ChatProvider {
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Resolves (or throws a ProviderError) before the first event, so failures before the first byte can be retried. */
  chatStream(request: ChatRequest): Promise<AsyncIterable<ChatStreamEvent>>;
}
