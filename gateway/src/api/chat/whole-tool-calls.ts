import type { ChatStreamEvent, ToolCallDelta } from '../../providers/contracts/chat.js';

/**
 * Streamed tool calls, each sent whole in one delta just before its choice finishes. Mistral's wire
 * does this and Mistral's SDK requires `function.name` in every tool-call delta, so OpenAI-style
 * fragments (the name once, then argument pieces) fail its validation; one whole delta is valid for
 * both wires. Text deltas pass through as they come.
 */
export async function* wholeToolCalls(events: AsyncIterable<ChatStreamEvent>): AsyncGenerator<ChatStreamEvent> {
  const pending = new Map<number, Map<number, ToolCallDelta>>();
  const flush = function* (index: number): Generator<ChatStreamEvent> {
    const calls = pending.get(index);
    pending.delete(index);
    if (calls) yield { type: 'delta', index, tool_calls: [...calls.values()] };
  };
  for await (const event of events) {
    if (event.type === 'delta' && event.tool_calls) {
      const calls = pending.get(event.index) ?? new Map<number, ToolCallDelta>();
      pending.set(event.index, calls);
      for (const piece of event.tool_calls) calls.set(piece.index, merge(calls.get(piece.index), piece));
      const { tool_calls: _calls, ...rest } = event;
      if (rest.content !== undefined || rest.role !== undefined) yield rest;
      continue;
    }
    if (event.type === 'finish') yield* flush(event.index);
    yield event;
  }
  for (const index of [...pending.keys()]) yield* flush(index);
}

function merge(whole: ToolCallDelta | undefined, piece: ToolCallDelta): ToolCallDelta {
  if (!whole) return { ...piece, function: { name: piece.function?.name ?? '', arguments: piece.function?.arguments ?? '' } };
  return {
    index: whole.index,
    id: piece.id ?? whole.id,
    type: piece.type ?? whole.type,
    function: { name: piece.function?.name || whole.function?.name || '', arguments: (whole.function?.arguments ?? '') + (piece.function?.arguments ?? '') },
  };
}
