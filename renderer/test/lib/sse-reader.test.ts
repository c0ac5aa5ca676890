import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/lib/gateway-error';
import { readSseJson, SseParser } from '../../src/lib/sse-reader';

const STREAM =
  'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n' +
  ': keep-alive comment\n\n' +
  'data: {"choices":[{"delta":{"content":"lo ✓"}}]}\r\n\r\n' +
  'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}\n\n' +
  'data: [DONE]\n\n';

function bodyOf(parts: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of parts) controller.enqueue(typeof p === 'string' ? encoder.encode(p) : p);
      controller.close();
    },
  });
}

async function collect<T>(body: ReadableStream<Uint8Array>): Promise<T[]> {
  const out: T[] = [];
  for await (const frame of readSseJson<T>(body)) out.push(frame);
  return out;
}

describe('SseParser', () => {
  it('yields the same events however the text is cut', () => {
    const whole = new SseParser().push(STREAM);
    expect(whole).toHaveLength(4);
    for (let cut = 1; cut < STREAM.length; cut++) {
      const parser = new SseParser();
      const events = [...parser.push(STREAM.slice(0, cut)), ...parser.push(STREAM.slice(cut)), ...parser.end()];
      expect(events, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('joins multi-line data and flushes an unterminated last event', () => {
    const parser = new SseParser();
    expect(parser.push('event: x\ndata: a\ndata: b\n\ndata: tail')).toEqual(['a\nb']);
    expect(parser.end()).toEqual(['tail']);
  });
});

describe('readSseJson', () => {
  it('parses frames split one byte at a time, multi-byte characters included, and stops at [DONE]', async () => {
    const bytes = new TextEncoder().encode(STREAM + 'data: {"after":"done"}\n\n');
    const frames = await collect<{ choices: { delta?: { content: string } }[] }>(
      bodyOf(Array.from(bytes, (b) => new Uint8Array([b]))),
    );
    expect(frames).toHaveLength(3);
    expect(frames.map((f) => f.choices[0]?.delta?.content ?? '').join('')).toBe('Hello ✓');
  });

  it('throws the gateway message of an error frame sent mid-stream', async () => {
    const body = bodyOf([
      'data: {"choices":[{"delta":{"content":"partial"}}]}\n\n',
      'data: {"object":"error","message":"Upstream timed out after 30 s","type":"upstream_error","param":null,"code":"upstream_timeout"}\n\n',
      'data: [DONE]\n\n',
    ]);
    const seen: unknown[] = [];
    const failure = await (async () => {
      try {
        for await (const frame of readSseJson(body)) seen.push(frame);
      } catch (error) {
        return error;
      }
    })();
    expect(seen).toHaveLength(1);
    expect(failure).toBeInstanceOf(GatewayError);
    expect((failure as GatewayError).message).toBe('Upstream timed out after 30 s');
    expect((failure as GatewayError).code).toBe('upstream_timeout');
  });
});
