import { describe, expect, it } from 'vitest';
import { batchedEvents, batchesOf } from '../../src/streaming/event-batches.js';
import { reframeOpenAiStream } from '../../src/providers/_shared/openai-wire/reframe-openai-stream.js';
import type { JsonRecord } from '../../src/providers/_shared/http/wire-guards.js';

const frame = (body: object) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...body })}\n\n`;
const text = (content: string) => frame({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });

async function* upstream(chunks: string[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield new TextEncoder().encode(chunk);
}

const delta = (choice: JsonRecord, index: number) => {
  const content = (choice.delta as JsonRecord | undefined)?.content;
  return typeof content === 'string' && content !== ''
    ? { event: { type: 'delta' as const, index, content }, text: content }
    : { text: '' };
};
const contentDelta = (content: string, index: number) => ({ type: 'delta' as const, index, content });

/** Reads a stream to its end or failure: what came, and the failure's message. */
async function drain<T>(source: AsyncIterable<T>): Promise<{ read: T[]; failure?: string }> {
  const read: T[] = [];
  try {
    for await (const item of source) read.push(item);
    return { read };
  } catch (error) {
    return { read, failure: (error as Error).message };
  }
}

describe('event batches', () => {
  it('gives the events of one upstream chunk as one batch, and the same events read one by one', async () => {
    const chunks = [
      text('a') + text('b') + text('c'),
      text('d') + frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }) + 'data: [DONE]\n\n',
    ];
    const stream = () =>
      reframeOpenAiStream(upstream(chunks), { providerName: 'up', promptTokens: 3, delta, contentDelta });
    const batches = (await drain(batchesOf(stream()))).read;
    expect(batches.map((batch) => batch.length)).toEqual([3, 2, 1]);
    expect(batches.at(-1)).toEqual([
      { type: 'usage', usage: { prompt_tokens: 3, completion_tokens: expect.any(Number) } },
    ]);
    expect((await drain(stream())).read).toEqual(batches.flat());
  });

  it('reads the events before a failing frame of the same chunk before the failure, in batches and one by one', async () => {
    const chunks = [
      text('one') + text('two') + `data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n` + text('never'),
    ];
    const stream = () =>
      reframeOpenAiStream(upstream(chunks), { providerName: 'up', promptTokens: 3, delta, contentDelta });
    const expected = [contentDelta('one', 0), contentDelta('two', 0)];
    const inBatches = await drain(batchesOf(stream()));
    expect(inBatches.read).toEqual([expected]);
    expect(inBatches.failure).toBe('up failed mid-stream: overloaded');
    const oneByOne = await drain(stream());
    expect(oneByOne.read).toEqual(expected);
    expect(oneByOne.failure).toBe('up failed mid-stream: overloaded');
  });

  it('stops its source when a reader stops, read one by one or in batches', async () => {
    for (const readInBatches of [false, true]) {
      let stopped = false;
      let produced = 0;
      async function* source(): AsyncGenerator<number[]> {
        try {
          for (;;) yield [++produced, ++produced];
        } finally {
          stopped = true;
        }
      }
      const events = batchedEvents(source());
      for await (const item of readInBatches ? events.batches() : events)
        if ((Array.isArray(item) ? item[0] : item) >= 3) break;
      expect(stopped).toBe(true);
      expect(produced).toBe(4);
    }
  });

  it('takes an ordinary event stream one event to a batch', async () => {
    async function* plain(): AsyncGenerator<string> {
      yield 'x';
      yield 'y';
    }
    expect((await drain(batchesOf(plain()))).read).toEqual([['x'], ['y']]);
  });
});
