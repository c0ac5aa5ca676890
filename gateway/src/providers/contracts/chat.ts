import type { FinishReason, SamplingParams, TokenUsage } from './sampling.js';

export interface TextPart {
  type: 'text';
  text: string;
}
export interface ImageUrlPart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
}
export type ContentPart = TextPart | ImageUrlPart;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export type ToolChoice =
  | 'auto'
  | 'none'
  | 'required'
  | 'any'
  | { type: 'function'; function: { name: string } };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name?: string; schema: Record<string, unknown>; strict?: boolean } };


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

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatProvider {
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Resolves (or throws a ProviderError) before the first event, so failures before the first byte can be retried. */
  chatStream(request: ChatRequest): Promise<AsyncIterable<ChatStreamEvent>>;
}

