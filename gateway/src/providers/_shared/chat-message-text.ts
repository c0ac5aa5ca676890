import type { ChatMessage } from '../../wire/chat-message-schemas.js';

/** The text of a message, for approximate token counts (images are not counted). */
export function chatMessageText(message: ChatMessage): string {
  const content =
    typeof message.content === 'string'
      ? message.content
      : (message.content ?? []).map((part) => (part.type === 'text' ? part.text : '')).join(' ');
  const calls = (message.tool_calls ?? []).map((call) => `${call.function.name} ${call.function.arguments}`).join(' ');
  // Role markers and separators cost a few tokens per message.
  return `${message.role}: ${content} ${calls}`;
}
