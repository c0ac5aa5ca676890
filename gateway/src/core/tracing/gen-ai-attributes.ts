import type { ChatChoice } from '../../providers/contracts/chat.js';
import type { SamplingParams } from '../../providers/contracts/sampling.js';
import type { SpanAttributes } from '../../providers/contracts/stage-tracer.js';
import type { ChatMessage } from '../../wire/chat-message-schemas.js';

/**
 * The GenAI semantic conventions these spans follow: the attribute names and values of
 * @opentelemetry/semantic-conventions 1.45 (`gen_ai.*`, status Development).
 */
export const GEN_AI_CONVENTIONS = '@opentelemetry/semantic-conventions 1.45.0';

/** `gen_ai.provider.name`: the conventions' well-known value for a provider kind, else the kind itself. */
export function genAiProviderName(type: string): string {
  switch (type) {
    case 'openai':
      return 'openai';
    case 'mistral':
      return 'mistral_ai';
    case 'llamacpp':
      return 'llama.cpp';
    default:
      return type;
  }
}

/** The request's parameters as `gen_ai.request.*` attributes: only those it sets. */
export function samplingAttributes(turn: Omit<SamplingParams, 'model' | 'signal'>, stream: boolean): SpanAttributes {
  const attributes: SpanAttributes = {};
  if (turn.temperature !== undefined) attributes['gen_ai.request.temperature'] = turn.temperature;
  if (turn.max_tokens !== undefined) attributes['gen_ai.request.max_tokens'] = turn.max_tokens;
  if (turn.top_p !== undefined) attributes['gen_ai.request.top_p'] = turn.top_p;
  if (turn.seed !== undefined) attributes['gen_ai.request.seed'] = turn.seed;
  if (turn.stop !== undefined) attributes['gen_ai.request.stop_sequences'] = turn.stop;
  if (turn.presence_penalty !== undefined) attributes['gen_ai.request.presence_penalty'] = turn.presence_penalty;
  if (turn.frequency_penalty !== undefined) attributes['gen_ai.request.frequency_penalty'] = turn.frequency_penalty;
  if (turn.n !== undefined && turn.n !== 1) attributes['gen_ai.request.choice.count'] = turn.n;
  if (stream) attributes['gen_ai.request.stream'] = true;
  return attributes;
}

type MessagePart =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'tool_call_response'; id: string; response: string }
  | { type: 'uri'; modality: 'image'; uri: string };

function partsOf(message: ChatMessage): MessagePart[] {
  const parts: MessagePart[] = [];
  if (message.role === 'tool' && typeof message.content === 'string')
    return [{ type: 'tool_call_response', id: message.tool_call_id ?? '', response: message.content }];
  if (typeof message.content === 'string') parts.push({ type: 'text', content: message.content });
  else
    for (const part of message.content ?? []) {
      if (part.type === 'text') parts.push({ type: 'text', content: part.text });
      // An inline image is not copied onto a span; a link is.
      else if (!part.image_url.url.startsWith('data:'))
        parts.push({ type: 'uri', modality: 'image', uri: part.image_url.url });
    }
  for (const call of message.tool_calls ?? [])
    parts.push({ type: 'tool_call', id: call.id, name: call.function.name, arguments: call.function.arguments });
  return parts;
}

/** `gen_ai.input.messages` (opt-in content): the conventions' JSON form of the chat history. */
export function inputMessages(messages: readonly ChatMessage[]): string {
  return JSON.stringify(messages.map((message) => ({ role: message.role, parts: partsOf(message) })));
}

/** `gen_ai.output.messages` (opt-in content): the answer's choices in the conventions' JSON form. */
export function outputMessages(choices: readonly ChatChoice[]): string {
  return JSON.stringify(
    choices.map((choice) => ({
      role: 'assistant',
      parts: partsOf({ role: 'assistant', content: choice.message.content, tool_calls: choice.message.tool_calls }),
      finish_reason: choice.finish_reason,
    })),
  );
}
