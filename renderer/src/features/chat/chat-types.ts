import type { StreamStats } from '../../lib/collect-text-stream';
import type { SamplingSettings } from '../../lib/sampling-settings';
import type { ChatBodyType } from '../../../../gateway/src/api/chat/chat-schemas';
import type { ChatMessage as WireChatMessage, ContentPart } from '../../../../gateway/src/wire/chat-message-schemas';

export type ResponseFormat = 'text' | 'json_object';

export interface ChatSettings extends SamplingSettings {
  model: string;
  system: string;
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
