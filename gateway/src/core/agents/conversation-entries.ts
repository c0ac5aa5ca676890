import type { ChatMessage, ContentPart } from '../../wire/chat-message-schemas.js';
import type { ConversationEntry } from '../../store/conversations-repository.js';
import { GatewayError } from '../errors/gateway-error.js';
import { newId } from '../ids/ids.js';

/** What a client sends as a conversation's `inputs`: a user message's text, or entries. */
export type ConversationInputs = string | Record<string, unknown>[];

const iso = (ms: number) => new Date(ms).toISOString();

const invalid = (param: string, message: string) =>
  new GatewayError(422, 'invalid_value', `Invalid request: ${message}`, { param });

/** The client's inputs as stored entries, each with an id and a time. */
export function inputEntries(inputs: ConversationInputs, now: number): ConversationEntry[] {
  const given = typeof inputs === 'string' ? [{ type: 'message.input', role: 'user', content: inputs }] : inputs;
  if (given.length === 0) throw invalid('inputs', "'inputs' needs at least one entry.");
  return given.map((entry, index) => {
    const type = typeof entry.type === 'string' ? entry.type : 'message.input';
    const stamp = {
      object: 'entry',
      id: newId(type === 'function.result' ? 'fr_' : 'msg_'),
      created_at: iso(now),
      completed_at: null,
    };
    switch (type) {
      case 'message.input':
        if (entry.role !== 'user' && entry.role !== 'assistant')
          throw invalid(`inputs[${index}].role`, "a message.input's role is 'user' or 'assistant'.");
        return {
          ...stamp,
          type,
          role: entry.role,
          content: contentOf(entry.content, `inputs[${index}].content`),
          prefix: entry.prefix === true,
        };
      case 'function.result':
        if (typeof entry.tool_call_id !== 'string' || typeof entry.result !== 'string')
          throw invalid(`inputs[${index}]`, "a function.result needs 'tool_call_id' and 'result' strings.");
        return { ...stamp, type, tool_call_id: entry.tool_call_id, result: entry.result };
      default:
        throw invalid(
          `inputs[${index}].type`,
          `entries of type "${type}" cannot be sent as inputs here; send message.input or function.result entries.`,
        );
    }
  });
}

function contentOf(content: unknown, param: string): string | Record<string, unknown>[] {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((chunk) => typeof chunk === 'object' && chunk !== null))
    return content as Record<string, unknown>[];
  throw invalid(param, 'content is a string or an array of chunks.');
}

function chatContent(content: unknown): string | ContentPart[] {
  if (typeof content === 'string') return content;
  return (content as Record<string, unknown>[]).map((chunk): ContentPart => {
    if (chunk.type === 'text' && typeof chunk.text === 'string') return { type: 'text', text: chunk.text };
    if (chunk.type === 'image_url')
      return {
        type: 'image_url',
        image_url:
          typeof chunk.image_url === 'string' ? { url: chunk.image_url } : (chunk.image_url as { url: string }),
      };
    throw invalid(
      'inputs',
      `content chunks of type "${String(chunk.type)}" are not supported in conversations; send text or image_url chunks.`,
    );
  });
}

/** The chat messages a conversation's entries stand for, after the instructions as the system message. */
export function chatMessagesOf(instructions: string | null, entries: ConversationEntry[]): ChatMessage[] {
  const messages: ChatMessage[] = instructions ? [{ role: 'system', content: instructions }] : [];
  for (const entry of entries) {
    const last = messages.at(-1);
    if (entry.type === 'message.input')
      messages.push({ role: entry.role as 'user' | 'assistant', content: chatContent(entry.content) });
    else if (entry.type === 'message.output') messages.push({ role: 'assistant', content: chatContent(entry.content) });
    else if (entry.type === 'tool.execution') {
      // An MCP call the gateway ran: the model reads it back as its call and the result.
      const info = (entry.info ?? {}) as Record<string, unknown>;
      const id = String(info.tool_call_id ?? entry.id);
      const call = {
        id,
        type: 'function' as const,
        function: { name: String(entry.name), arguments: String(entry.arguments) },
      };
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      messages.push({ role: 'tool', tool_call_id: id, content: String(info.output ?? info.error ?? '') });
    } else if (entry.type === 'function.call' && entry.confirmation_status) {
      // An MCP call that waited for confirmation: its tool.execution entry (if it ran or was refused) carries it.
    } else if (entry.type === 'function.call') {
      const call = {
        id: String(entry.tool_call_id),
        type: 'function' as const,
        function: { name: String(entry.name), arguments: String(entry.arguments) },
      };
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (entry.type === 'function.result')
      messages.push({ role: 'tool', tool_call_id: String(entry.tool_call_id), content: String(entry.result) });
  }
  return messages;
}

/** The fields every output entry carries. */
export const outputStamp = (model: string, agentId: string | null, startedAt: number, now: number) => ({
  object: 'entry',
  created_at: iso(startedAt),
  completed_at: iso(now),
  model,
  agent_id: agentId,
});
