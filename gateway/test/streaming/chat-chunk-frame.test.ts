import { describe, expect, it } from 'vitest';
import { frameChatChunk } from '../../src/streaming/chat-chunk-frame.js';

describe('chat chunk frames', () => {
  const head = { id: 'chatcmpl-1', created: 1_764_000_000, model: 'svc-large-3' };
  const choices = [{ index: 0, delta: { content: 'Hi "there"' }, finish_reason: null }];

  it('writes a chunk in OpenAI field order, with usage only when given', () => {
    expect(frameChatChunk(head, choices)).toBe(
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1764000000,"model":"svc-large-3",' +
        '"choices":[{"index":0,"delta":{"content":"Hi \\"there\\""},"finish_reason":null}]}',
    );
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    expect(JSON.parse(frameChatChunk(head, [], usage))).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1764000000,
      model: 'svc-large-3',
      choices: [],
      usage,
    });
  });
});
