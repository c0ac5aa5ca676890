import type { ChatStreamEvent, ToolCallDelta } from '../../providers/contracts/chat.js';

/**
 * Streamed tool calls, each sent whole in one delta just before its choice finishes. Mistral's wire
 * does this and Mistral's SDK requires `function.name` in every tool-call delta, so OpenAI-style
 * fragments (the name once, then argument pieces) fail its validation; one whole delta is valid for
 * both wires. Text deltas pass through as they come.
 *
 * Synchronous, one event in and what to send out through `emit`: the stream's loop calls it per
 * event instead of stepping another async generator per event.
 */
export class WholeToolCalls {
  private readonly pending = new Map<number, Map<number, ToolCallDelta>>();

  constructor(private readonly emit: (event: ChatStreamEvent) => void) {}

  /** One event of the provider's stream. */
  push(event: ChatStreamEvent): void {
    if (event.type === 'delta' && event.tool_calls) {
      const calls = this.pending.get(event.index) ?? new Map<number, ToolCallDelta>();
      this.pending.set(event.index, calls);
      for (const piece of event.tool_calls) calls.set(piece.index, merge(calls.get(piece.index), piece));
      const { tool_calls: _calls, ...rest } = event;
      if (rest.content !== undefined || rest.role !== undefined) this.emit(rest);
      return;
    }
    if (event.type === 'finish') this.flush(event.index);
    this.emit(event);
  }

  /** The provider's stream ended: tool calls of choices that never finished go now. */
  end(): void {
    for (const index of [...this.pending.keys()]) this.flush(index);
  }

  private flush(index: number): void {
    const calls = this.pending.get(index);
    this.pending.delete(index);
    if (calls) this.emit({ type: 'delta', index, tool_calls: [...calls.values()] });
  }
}

function merge(whole: ToolCallDelta | undefined, piece: ToolCallDelta): ToolCallDelta {
  if (!whole)
    return { ...piece, function: { name: piece.function?.name ?? '', arguments: piece.function?.arguments ?? '' } };
  return {
    index: whole.index,
    id: piece.id ?? whole.id,
    type: piece.type ?? whole.type,
    function: {
      name: piece.function?.name || whole.function?.name || '',
      arguments: (whole.function?.arguments ?? '') + (piece.function?.arguments ?? ''),
    },
  };
}
