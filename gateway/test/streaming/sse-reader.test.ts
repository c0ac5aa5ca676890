import { describe, expect, it } from 'vitest';
import { readSseEvents, type SseEvent } from '../../src/streaming/sse-reader.js';

async function* chunks(parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part;
}

async function collect(parts: (string | Uint8Array)[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of readSseEvents(chunks(parts))) events.push(event);
  return events;
}

/** Every way of cutting the bytes in two or three pieces must give the same events. */
function splits(bytes: Uint8Array): Uint8Array[][] {
  const result: Uint8Array[][] = [];
  for (let i = 0; i <= bytes.length; i++) {
    for (let j = i; j <= bytes.length; j += 3)
      result.push([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
  }
  return result;
}

describe('readSseEvents', () => {
  it('reads data frames, multi-line data, event names and ids, and skips comments', async () => {
    const events = await collect([
      ': keep-alive\n\ndata: {"a":1}\n\nevent: ping\nid: 7\ndata: one\ndata: two\n\ndata\n\n',
    ]);
    expect(events).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'ping', data: 'one\ntwo', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('accepts CRLF and CR line ends and data without the space after the colon', async () => {
    expect(await collect(['data:a\r\n\r\ndata: b\r\rdata: c\n\n'])).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('gives the same events whatever the chunk boundaries, including inside CRLF and multi-byte characters', async () => {
    const text = 'data: {"content":"héllo 👋"}\r\n\r\n: comment\r\ndata: [DONE]\r\n\r\n';
    const bytes = new TextEncoder().encode(text);
    const expected = await collect([text]);
    expect(expected.map((event) => event.data)).toEqual(['{"content":"héllo 👋"}', '[DONE]']);
    for (const parts of splits(bytes)) expect(await collect(parts)).toEqual(expected);
  });

  it('dispatches a last event that lacks its closing blank line, and nothing for a trailing comment', async () => {
    expect(await collect(['data: last'])).toEqual([{ event: 'message', data: 'last' }]);
    expect(await collect(['data: x\n\n: bye'])).toEqual([{ event: 'message', data: 'x' }]);
  });
});
