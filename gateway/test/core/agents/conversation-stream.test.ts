import { describe, expect, it } from 'vitest';
import type { ChatStreamEvent } from '../../../src/providers/contracts/chat.js';
import { conversationEvents, type ConversationStreamEvent } from '../../../src/core/agents/conversation-stream.js';

async function* chat(events: ChatStreamEvent[]): AsyncGenerator<ChatStreamEvent> {
  yield* events;
}

async function run(events: ChatStreamEvent[]) {
  const generator = conversationEvents(chat(events), {
    conversationId: 'conv_1',
    model: 'm',
    agentId: null,
    startedAt: 0,
    now: () => 1000,
  });
  const emitted: ConversationStreamEvent[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { emitted, outputs: next.value };
    emitted.push(next.value);
  }
}

describe('conversationEvents', () => {
  it('text, then two tool calls interleaved by index: one entry each, output indices in order of appearance, arguments joined', async () => {
    const { emitted, outputs } = await run([
      { type: 'delta', index: 0, role: 'assistant', content: 'Let me ' },
      { type: 'delta', index: 0, content: 'check.' },
      {
        type: 'delta',
        index: 0,
        tool_calls: [{ index: 0, id: 'call_a', function: { name: 'look', arguments: '{"q":' } }],
      },
      { type: 'delta', index: 0, tool_calls: [{ index: 1, id: 'call_b', function: { name: 'fetch', arguments: '' } }] },
      {
        type: 'delta',
        index: 0,
        tool_calls: [
          { index: 0, function: { arguments: '1}' } },
          { index: 1, function: { arguments: '{}' } },
        ],
      },
      { type: 'delta', index: 1, content: 'a second choice is ignored' },
      { type: 'finish', index: 0, finish_reason: 'tool_calls' },
      { type: 'usage', usage: { prompt_tokens: 7, completion_tokens: 5 } },
    ]);
    expect(emitted.map((event) => event.type)).toEqual([
      'conversation.response.started',
      'message.output.delta',
      'message.output.delta',
      'function.call.delta',
      'function.call.delta',
      'function.call.delta',
      'function.call.delta',
      'conversation.response.done',
    ]);
    expect(emitted.at(-1)).toMatchObject({ usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } });
    const calls = emitted.filter((event) => event.type === 'function.call.delta');
    expect(calls.map((call) => [call.output_index, call.tool_call_id, call.arguments])).toEqual([
      [1, 'call_a', '{"q":'],
      [2, 'call_b', ''],
      [1, 'call_a', '1}'],
      [2, 'call_b', '{}'],
    ]);
    expect(outputs.map((entry) => [entry.type, entry.content ?? entry.arguments])).toEqual([
      ['message.output', 'Let me check.'],
      ['function.call', '{"q":1}'],
      ['function.call', '{}'],
    ]);
    expect(outputs[1]).toMatchObject({
      id: calls[0]!.id,
      name: 'look',
      tool_call_id: 'call_a',
      completed_at: new Date(1000).toISOString(),
    });
    expect(outputs.every((entry) => !('outputIndex' in entry))).toBe(true);
  });

  it('an empty answer still stores one empty message.output and reports zero usage', async () => {
    const { emitted, outputs } = await run([{ type: 'finish', index: 0, finish_reason: 'stop' }]);
    expect(emitted.map((event) => event.type)).toEqual(['conversation.response.started', 'conversation.response.done']);
    expect(emitted[1]).toMatchObject({ usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
    expect(outputs).toEqual([expect.objectContaining({ type: 'message.output', role: 'assistant', content: '' })]);
  });
});
