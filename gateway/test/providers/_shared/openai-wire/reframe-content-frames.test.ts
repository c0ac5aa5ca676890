import { describe, expect, it } from 'vitest';
import { reframeOpenAiStream } from '../../../../src/providers/_shared/openai-wire/reframe-openai-stream.js';
import { readContentOnlyFrame } from '../../../../src/providers/_shared/openai-wire/content-only-frame.js';
import type { JsonRecord } from '../../../../src/providers/_shared/http/wire-guards.js';

const frame = (body: object) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', ...body });

async function* body(frames: string[]): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(frames.map((data) => `data: ${data}\n\n`).join('') + 'data: [DONE]\n\n');
}

/** The events with and without the content-only shortcut, which must be the same. */
async function bothWays(frames: string[]) {
  const delta = (choice: JsonRecord, index: number) => {
    const content = (choice.delta as JsonRecord | undefined)?.content;
    return typeof content === 'string' && content !== ''
      ? { event: { type: 'delta' as const, index, content }, text: content }
      : { text: '' };
  };
  const run = async (fast: boolean) => {
    const events: unknown[] = [];
    const stream = reframeOpenAiStream(body(frames), {
      providerName: 'up',
      promptTokens: 3,
      delta,
      ...(fast
        ? { contentDelta: (content: string, index: number) => ({ type: 'delta' as const, index, content }) }
        : {}),
    });
    for await (const event of stream) events.push(event);
    return events;
  };
  return { fast: await run(true), full: await run(false) };
}

describe('content-only chat frames', () => {
  it('reads text frames without the full parse, as the full parse would', async () => {
    const frames = [
      frame({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }),
      frame({ choices: [{ index: 0, delta: { content: 'Hé "quoted" \\ \n \u2028 😀' }, finish_reason: null }] }),
      frame({
        system_fingerprint: 'fp',
        choices: [{ index: 0, delta: { content: ' more' }, logprobs: null, finish_reason: null }],
        usage: null,
      }),
      frame({ choices: [{ index: 0, delta: { content: '' }, finish_reason: null }] }),
      frame({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ];
    const { fast, full } = await bothWays(frames);
    expect(fast).toEqual(full);
    expect(fast).toContainEqual({ type: 'delta', index: 0, content: 'Hé "quoted" \\ \n \u2028 😀' });
    expect(readContentOnlyFrame(frames[1])).toEqual({ index: 0, content: 'Hé "quoted" \\ \n \u2028 😀' });
  });

  it('reads any text exactly: quotes, backslashes (also last), control characters, surrogates', () => {
    const alphabet = [
      'a',
      ' ',
      '"',
      '\\',
      '\n',
      '\t',
      '\u0000',
      '\u001f',
      'é',
      '\u2028',
      '😀',
      '\ud800',
      '/',
      '}',
      ']',
      ',',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const content = Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join('');
      const data = frame({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
      expect(readContentOnlyFrame(data), JSON.stringify(content)).toEqual({ index: 0, content });
    }
    expect(
      readContentOnlyFrame(
        frame({ model: 'm\\"', choices: [{ index: 2, delta: { content: '\\' }, finish_reason: null }] }),
      ),
    ).toEqual({ index: 2, content: '\\' });
  });

  it('leaves every other frame to the full parse', () => {
    expect(
      readContentOnlyFrame(
        frame({ choices: [{ index: 0, delta: { role: 'assistant', content: 'x' }, finish_reason: null }] }),
      ),
    ).toBeUndefined();
    expect(
      readContentOnlyFrame(frame({ choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }] })),
    ).toBeUndefined();
    expect(
      readContentOnlyFrame(
        frame({
          choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      ),
    ).toBeUndefined();
    expect(
      readContentOnlyFrame(
        frame({ choices: [{ index: 0, delta: { content: 'x', tool_calls: [] }, finish_reason: null }] }),
      ),
    ).toBeUndefined();
    expect(
      readContentOnlyFrame(
        frame({ error: { message: 'boom' }, choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }] }),
      ),
    ).toBeUndefined();
    // An escape JSON does not allow: the full parse reports the frame as malformed.
    expect(
      readContentOnlyFrame(
        '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"\\q"},"finish_reason":null}]}',
      ),
    ).toBeUndefined();
    // A raw control character, which JSON does not allow inside a string, whether or not the text has an escape.
    expect(
      readContentOnlyFrame(
        '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a\u0001b"},"finish_reason":null}]}',
      ),
    ).toBeUndefined();
    expect(
      readContentOnlyFrame(
        '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a\tb"},"finish_reason":null}]}',
      ),
    ).toBeUndefined();
  });
});
