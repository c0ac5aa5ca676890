import { samplingBody } from '../../lib/sampling-settings';
import type { ChatCompletionRequest, ChatMessage, ChatSettings, ContentPart, WireMessage } from './chat-types';

function toWire(message: ChatMessage): WireMessage {
  if (message.images.length === 0) return { role: message.role, content: message.content };
  const parts: ContentPart[] = [];
  if (message.content) parts.push({ type: 'text', text: message.content });
  for (const url of message.images) parts.push({ type: 'image_url', image_url: { url } });
  return { role: message.role, content: parts };
}

/** The exact body the chat playground sends; "view code" shows the same object. */
export function buildChatRequest(settings: ChatSettings, messages: ChatMessage[]): ChatCompletionRequest {
  const wire: WireMessage[] = [];
  if (settings.system.trim()) wire.push({ role: 'system', content: settings.system });
  for (const m of messages) if (m.status !== 'error' || m.role === 'user') wire.push(toWire(m));
  return {
    model: settings.model,
    messages: wire,
    ...samplingBody(settings),
    ...(settings.responseFormat === 'json_object' ? { response_format: { type: 'json_object' as const } } : {}),
    stream: true,
    stream_options: { include_usage: true },
  };
}
