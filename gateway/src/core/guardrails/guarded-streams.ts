import type { ChatStreamEvent } from '../../providers/contracts/chat.js';
import type { CompletionStreamEvent } from '../../providers/contracts/completions.js';
import type { TextStreamGuard } from './text-stream-guard.js';

/** A chat stream's batches with their text checked by `guard`: held, redacted, or cut by a GatewayError that becomes the error frame. */
export async function* guardChatStream(
  batches: AsyncIterable<readonly ChatStreamEvent[]>,
  guard: TextStreamGuard,
): AsyncGenerator<readonly ChatStreamEvent[]> {
  for await (const batch of batches) {
    const out: ChatStreamEvent[] = [];
    for (const event of batch) {
      if (event.type === 'delta' && event.content) {
        const released = await guard.push(event.index, event.content);
        const { content: _held, ...rest } = event;
        if (released) out.push({ ...event, content: released });
        else if (rest.role || rest.tool_calls) out.push(rest);
      } else if (event.type === 'finish') {
        const rest = await guard.end(event.index);
        if (rest) out.push({ type: 'delta', index: event.index, content: rest });
        out.push(event);
      } else out.push(event);
    }
    if (out.length > 0) yield out;
  }
  const rests = await guard.endAll();
  if (rests.length > 0) yield rests.map(({ index, text }) => ({ type: 'delta', index, content: text }));
}

/** The same for a text completion's events (completions and FIM). */
export async function* guardCompletionStream<E extends CompletionStreamEvent>(
  events: AsyncIterable<E>,
  guard: TextStreamGuard,
): AsyncGenerator<E | CompletionStreamEvent> {
  for await (const event of events) {
    if (event.type === 'delta') {
      const released = await guard.push(event.index, event.text);
      if (released) yield { ...event, text: released };
    } else if (event.type === 'finish') {
      const rest = await guard.end(event.index);
      if (rest) yield { type: 'delta', index: event.index, text: rest };
      yield event;
    } else {
      for (const { index, text } of await guard.endAll()) yield { type: 'delta', index, text };
      yield event;
    }
  }
  for (const { index, text } of await guard.endAll()) yield { type: 'delta', index, text };
}
