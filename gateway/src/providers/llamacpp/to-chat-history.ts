import type { ChatHistoryItem } from 'node-llama-cpp';
import { ProviderError } from '../_shared/provider-error.js';
import type { ChatMessage } from '../types.js';

function textOf(message: ChatMessage): string {
  if (message.content === null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'text') return part.text;
      throw new ProviderError('invalid_request', 'Image inputs are not supported by local llama.cpp models; send text only or route to a vision model.', {
        param: 'messages',
        code: 'unsupported_content',
      });
    })
    .join('\n');
}

/**
 * Converts API messages to node-llama-cpp's history, ending with the empty model turn to generate.
 * Tool turns are refused: this engine does not do tool calls.
 */
export function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message): ChatHistoryItem => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { type: 'system', text: textOf(message) };
      case 'user':
        return { type: 'user', text: textOf(message) };
      case 'assistant':
        if (message.tool_calls && message.tool_calls.length > 0) throw toolsUnsupported('messages');
        return { type: 'model', response: [textOf(message)] };
      case 'tool':
        throw toolsUnsupported('messages');
    }
  });
  history.push({ type: 'model', response: [] });
  return history;
}

export function toolsUnsupported(param: string): ProviderError {
  return new ProviderError('invalid_request', 'tools are not supported by the local llama.cpp engine', { param, code: 'tools_unsupported' });
}
