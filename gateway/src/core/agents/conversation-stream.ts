import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ConversationEntry } from '../../store/conversations-repository.js';
import { newId } from '../ids/ids.js';
import { outputStamp } from './conversation-entries.js';

/** One of Mistral's conversation server-sent events; `type` is also the SSE event name. */
export type ConversationStreamEvent = { type: string; created_at: string } & Record<string, unknown>;

export interface ConversationUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export const conversationUsage = (usage: TokenUsage): ConversationUsage => ({
  prompt_tokens: usage.prompt_tokens,
  completion_tokens: usage.completion_tokens,
  total_tokens: usage.prompt_tokens + usage.completion_tokens,
});

export interface StreamedTurnContext {
  conversationId: string;
  model: string;
  agentId: string | null;
  startedAt: number;
  now: () => number;
}

interface OpenCall {
  entry: ConversationEntry & { arguments: string };
  outputIndex: number;
}

/**
 * A streamed chat turn (its first choice) as Mistral's conversation events: conversation.response.started,
 * message.output.delta per text piece, function.call.delta per tool-call piece (the same entry id across
 * one call's pieces), then conversation.response.done with the usage. Returns the output entries, with
 * the ids the events carried, for the conversation to store.
 */
export async function* conversationEvents(
  chat: AsyncIterable<ChatStreamEvent>,
  context: StreamedTurnContext,
): AsyncGenerator<ConversationStreamEvent, ConversationEntry[]> {
  const at = () => new Date(context.now()).toISOString();
  const stamp = () => outputStamp(context.model, context.agentId, context.startedAt, context.now());
  yield { type: 'conversation.response.started', created_at: at(), conversation_id: context.conversationId };
  let outputIndex = 0;
  let message: (ConversationEntry & { content: string; outputIndex: number }) | undefined;
  const calls = new Map<number, OpenCall>();
  const outputs: ConversationEntry[] = [];
  let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  for await (const event of chat) {
    if (event.type === 'usage') usage = event.usage;
    if (event.type !== 'delta' || event.index !== 0) continue;
    if (event.content) {
      if (!message) {
        message = {
          ...stamp(),
          id: newId('msg_'),
          type: 'message.output',
          role: 'assistant',
          content: '',
          outputIndex: outputIndex++,
        };
        outputs.push(message);
      }
      message.content += event.content;
      yield {
        type: 'message.output.delta',
        created_at: at(),
        output_index: message.outputIndex,
        id: message.id,
        content_index: 0,
        model: context.model,
        agent_id: context.agentId,
        role: 'assistant',
        content: event.content,
      };
    }
    for (const delta of event.tool_calls ?? []) {
      let call = calls.get(delta.index);
      if (!call) {
        call = {
          entry: {
            ...stamp(),
            id: newId('fc_'),
            type: 'function.call',
            tool_call_id: delta.id ?? newId('call_'),
            name: delta.function?.name ?? '',
            arguments: '',
          },
          outputIndex: outputIndex++,
        };
        calls.set(delta.index, call);
        outputs.push(call.entry);
      } else if (delta.function?.name) call.entry.name = `${String(call.entry.name)}${delta.function.name}`;
      const piece = delta.function?.arguments ?? '';
      call.entry.arguments += piece;
      const { entry } = call;
      yield {
        type: 'function.call.delta',
        created_at: at(),
        output_index: call.outputIndex,
        id: entry.id,
        model: context.model,
        agent_id: context.agentId,
        name: entry.name,
        tool_call_id: entry.tool_call_id,
        arguments: piece,
      };
    }
  }
  if (outputs.length === 0)
    outputs.push({ ...stamp(), id: newId('msg_'), type: 'message.output', role: 'assistant', content: '' });
  const completedAt = new Date(context.now()).toISOString();
  yield { type: 'conversation.response.done', created_at: completedAt, usage: conversationUsage(usage) };
  return outputs.map(
    ({ outputIndex: _index, ...entry }) => ({ ...entry, completed_at: completedAt }) as ConversationEntry,
  );
}
