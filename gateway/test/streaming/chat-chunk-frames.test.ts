import { describe, expect, it } from 'vitest';
import { ChatChunkFrames } from '../../src/streaming/chat-chunk-frames.js';

const head = { id: 'chatcmpl-"a\\b"', created: 1_764_000_000, model: 'svc-large-3 \u2028 é' };
/** The order the chunk's fields are sent in: OpenAI's. */
const chunkOf = (choices: unknown[], usage?: unknown) =>
  JSON.stringify({
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    choices,
    ...(usage === undefined ? {} : { usage }),
  });

describe('chat chunk frames', () => {
  const frames = new ChatChunkFrames(head);

  it('writes the bytes JSON.stringify writes for the chunk, with and without usage', () => {
    const choices = [
      { index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null },
      {
        index: 1,
        delta: { content: '', tool_calls: [{ index: 0, id: 'c', function: { name: 'f' } }] },
        finish_reason: 'stop',
      },
    ];
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    expect(frames.chunk(choices)).toBe(chunkOf(choices));
    expect(frames.chunk([], usage)).toBe(chunkOf([], usage));
  });

  it('writes a text chunk as the chunk of its one choice, for any text', () => {
    const alphabet = ['a', ' ', '"', '\\', '\n', '\t', '\u0000', '\u001f', 'é', '\u2028', '😀', '\ud800', '}', ']'];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 1000; i++) {
      const content = Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join('');
      const index = next() % 3;
      expect(frames.text(index, content), JSON.stringify(content)).toBe(
        chunkOf([{ index, delta: { content }, finish_reason: null }]),
      );
    }
  });
});
