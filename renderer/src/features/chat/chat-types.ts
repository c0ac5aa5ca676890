import type { StreamStats } from '../../lib/collect-text-stream';
import type { Usage } from '../../lib/gateway-types';

export type ResponseFormat = 'text' | 'json_object';

export interface ChatSettings {
  model: string;
  system: string;
  temperature: number;
  maxTokens: number | null;
  topP: number;
  /** One stop sequence per line. */
  stop: string;
  seed: number | null;
  responseFormat: ResponseFormat;
}

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
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  messages: ChatMessage[];
  settings: ChatSettings;
}

export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface WireMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
}

export interface ChatCompletionRequest {
  model: string;
  messages: WireMessage[];
  temperature: number;
  top_p: number;
  max_tokens?: number;
  stop?: string[];
  seed?: number;
  response_format?: { type: ResponseFormat };
  stream: true;
  stream_options: { include_usage: true };
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  model: string;
  choices: { index: number; delta: { role?: string; content?: string | null }; finish_reason: string | null }[];
  usage?: Usage | null;
}
