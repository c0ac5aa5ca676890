import type { ChatMessage } from '../../wire/chat-message-schemas.js';
import type { ResponseFormat } from '../../wire/response-format-schema.js';
import type { ToolChoice, ToolDefinition } from '../../wire/tool-schemas.js';
import type { ChatTurn } from '../chat/chat-service.js';

/** A set value of Mistral's completion_args (null and absent both mean "not set"). */
function arg<T>(args: Record<string, unknown>, name: string): T | undefined {
  const value = args[name];
  return value === null || value === undefined ? undefined : (value as T);
}

/**
 * A conversation's chat turn: its messages and function tools, with Mistral's `completion_args`
 * (already checked against their schema) as chat parameters; `random_seed` is the seed, a single
 * `stop` string a one-element list. Other fields of completion_args are not chat parameters.
 */
export function completionArgsTurn(
  messages: ChatMessage[],
  tools: ToolDefinition[],
  args: Record<string, unknown>,
): ChatTurn {
  const stop = arg<string | string[]>(args, 'stop');
  return {
    messages,
    max_tokens: arg(args, 'max_tokens'),
    temperature: arg(args, 'temperature'),
    top_p: arg(args, 'top_p'),
    stop: stop === undefined ? undefined : Array.isArray(stop) ? stop : [stop],
    seed: arg(args, 'random_seed'),
    presence_penalty: arg(args, 'presence_penalty'),
    frequency_penalty: arg(args, 'frequency_penalty'),
    response_format: arg<ResponseFormat>(args, 'response_format'),
    tools: tools.length > 0 ? tools : undefined,
    tool_choice: arg<ToolChoice>(args, 'tool_choice'),
  };
}
