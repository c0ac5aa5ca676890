import type { StreamStats } from '../../lib/collect-text-stream';
import type { SamplingSettings } from '../../lib/sampling-settings';
import type { ChatBodyType } from '../../../../gateway/src/api/chat/chat-schemas';
import type { ChatMessage as WireChatMessage, ContentPart } from '../../../../gateway/src/wire/chat-message-schemas';

export type ResponseFormat = 'text' | 'json_object';

/** When a tool call waits for a person: as each server marks its tools (read-only ones run), always, or never. */
export type McpApproval = 'server' | 'always' | 'never';

export interface ChatSettings extends SamplingSettings {
  model: string;
  system: string;
  responseFormat: ResponseFormat;
  /** Ids of the MCP servers whose tools the model may call; optional because older chats lack it. */
  mcpServers?: string[];
  mcpApproval?: McpApproval;
}

/** What became of a tool call: waiting for a person, answered by them, running, or finished. */
export type ToolCallState = 'awaiting_approval' | 'approved' | 'denied' | 'calling' | 'completed' | 'failed';

/** One MCP tool call the model made, as the conversation shows it. */
export interface ToolCall {
  kind: 'call';
  /** The mcp_call item's id (the approval request's id while it waits). */
  id: string;
  server: string;
  name: string;
  /** The arguments as the model wrote them (JSON text). */
  arguments: string;
  state: ToolCallState;
  approvalRequestId?: string;
  /** Approved or denied here, and not yet sent to the gateway. */
  pendingDecision?: boolean;
  /** The tool's output: untrusted text, shown as text. */
  output?: string;
  error?: string;
  durationMs?: number;
}

/** A server whose tools could not be listed for the model. */
export interface ToolListFailure {
  kind: 'list_failed';
  id: string;
  server: string;
  error: string;
}

export type ToolActivity = ToolCall | ToolListFailure;

export type MessageStats = StreamStats;

export type MessageStatus = 'streaming' | 'done' | 'stopped' | 'error';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** Attached images as data URLs (user messages only). */
  images: string[];
  status?: MessageStatus;
  error?: string;
  model?: string;
  stats?: MessageStats;
  /** MCP tool calls made for this answer, in order (assistant messages of chats with MCP servers). */
  tools?: ToolActivity[];
  /** The stored response this answer continues from (the Responses API's previous_response_id) after an approval. */
  responseId?: string;
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  messages: ChatMessage[];
  settings: ChatSettings;
}

export type { ContentPart };
export type { ChatCompletionChunk } from '../../../../gateway/src/api/chat/chat-schemas';

/** A message as the playground sends it. */
export type WireMessage = Pick<WireChatMessage, 'role' | 'content'>;

/** The body the playground sends: always streamed, with usage at the end. */
export type ChatCompletionRequest = ChatBodyType & {
  model: string;
  messages: WireMessage[];
  stream: true;
  stream_options: { include_usage: true };
};
