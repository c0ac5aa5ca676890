import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { TokenUsage } from '../../providers/contracts/sampling.js';
import type { ConversationEntry } from '../../store/conversations-repository.js';
import {
  ConversationOutputWriter,
  type ConversationStreamEvent,
  type StreamedTurnContext,
} from './conversation-output-writer.js';

export {
  conversationUsage,
  type ConversationStreamEvent,
  type ConversationUsage,
  type StreamedTurnContext,
} from './conversation-output-writer.js';

/**
 * A streamed chat turn (its first choice) as Mistral's conversation events (see
 * ConversationOutputWriter). Returns the output entries, with the ids the events carried, for the
 * conversation to store.
 */
export async function* conversationEvents(
  chat: AsyncIterable<ChatStreamEvent>,
  context: StreamedTurnContext,
): AsyncGenerator<ConversationStreamEvent, ConversationEntry[]> {
  const writer = new ConversationOutputWriter(context);
  yield writer.started();
  let usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  for await (const event of chat) {
    if (event.type === 'usage') usage = event.usage;
    else yield* writer.delta(event);
  }
  yield* writer.endStep();
  const { event, outputs } = writer.done(usage);
  yield event;
  return outputs;
}
