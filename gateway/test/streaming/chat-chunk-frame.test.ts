import { describe, expect, it } from 'vitest';
import { chatChunkFrames } from '../../src/streaming/chat-chunk-frame.js';

describe('chat chunk frames', () => {
  const frames = chatChunkFrames({ id: 'chatcmpl-1', created: 1_764_000_000, model: 'svc-large-3' });
  const choices = [{ index: 0, delta: { content: 'Hi "there"' }, finish_reason: null }];

  it('writes a chunk in OpenAI field order, with usage (or other fields after the choices) only when given', () => {
    expect(frames.chunk(choices)).toBe(
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764000000,"model":"svc-large-3",' +
        '"choices":[{"index":0,"delta":{"content":"Hi \\"there\\""},"finish_reason":null}]}',
    );
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    expect(JSON.parse(frames.chunk([], { usage }))).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1764000000,
      model: 'svc-large-3',
      choices: [],
      usage,
    });
    // A document answer's last chunk: the same bytes as the whole object serialised at once.
    const extras = { citations: [{ page: 1 }], document_text: undefined, answer_method: 'language_model' };
    expect(frames.chunk(choices, extras)).toBe(
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1_764_000_000,
        model: 'svc-large-3',
        choices,
        ...extras,
      }),
    );
  });

  it('writes a text-only chunk as the same bytes as the whole chunk of that delta', () => {
    for (const content of ['Hi "there"', '', 'line\nbreak \u2028 é 🙂', '\\']) {
      expect(frames.text(2, content)).toBe(frames.chunk([{ index: 2, delta: { content }, finish_reason: null }]));
    }
  });
});
