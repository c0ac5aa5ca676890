import { describe, expect, it } from 'vitest';
import { CoalescedFrames } from '../../src/streaming/coalesced-frames.js';
import { SseWriter } from '../../src/streaming/sse-writer.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a streamed body (CoalescedFrames) written by SseWriter', () => {
  it('sends the frames of one turn as one chunk, makes the writer wait while nobody reads, and loses or reorders nothing', async () => {
    const body = new CoalescedFrames(null);
    const writer = new SseWriter(body);
    const frame = (n: number) => JSON.stringify({ n, text: 'x'.repeat(1000) });

    // Nobody reads: the writer is told to wait after a bounded number of frames, not after all of them.
    let accepted = 0;
    while (accepted < 10_000 && writer.queueJsonText(frame(accepted))) {
      accepted++;
      await tick();
    }
    // What it holds for a reader that does not read stays within its high-water mark (Node's default).
    const frameBytes = `data: ${frame(0)}\n\n`.length;
    expect(accepted * frameBytes).toBeLessThanOrEqual(body.readableHighWaterMark + 2 * frameBytes);
    let drained: boolean | undefined;
    const waiting = writer.drained().then((ok) => (drained = ok));
    await tick();
    expect(drained).toBeUndefined();

    const chunks: string[] = [];
    body.on('data', (chunk: Buffer | string) => chunks.push(String(chunk)));
    await waiting;
    expect(drained).toBe(true);

    // Reading again: three frames of one turn leave as one chunk.
    const before = chunks.length;
    for (let n = accepted + 1; n <= accepted + 3; n++) expect(writer.queueJsonText(frame(n))).toBe(true);
    await tick();
    await tick();
    expect(chunks.slice(before)).toEqual([
      `data: ${frame(accepted + 1)}\n\ndata: ${frame(accepted + 2)}\n\ndata: ${frame(accepted + 3)}\n\n`,
    ]);

    await writer.done();
    const numbers = chunks
      .join('')
      .split('\n\n')
      .filter(Boolean)
      .map((line) => line.slice('data: '.length))
      .filter((data) => data !== '[DONE]')
      .map((data) => (JSON.parse(data) as { n: number }).n);
    expect(numbers).toEqual([
      ...Array.from({ length: accepted + 1 }, (_, n) => n),
      accepted + 1,
      accepted + 2,
      accepted + 3,
    ]);
    expect(chunks.join('').endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('sends the frames of the last turn with the end in one chunk once the producer is done', async () => {
    const body = new CoalescedFrames(null);
    const writer = new SseWriter(body);
    const chunks: string[] = [];
    body.on('data', (chunk: Buffer | string) => chunks.push(String(chunk)));

    writer.queueJsonText('1');
    await tick();
    await tick();
    expect(chunks).toEqual(['data: 1\n\n']);

    // The last upstream chunk: its frames, then the producer is done and the stream's usage is recorded over a turn or two.
    writer.queueJsonText('2');
    writer.queueJsonText('3');
    body.holdForEnd();
    await tick();
    await tick();
    expect(chunks).toHaveLength(1);
    await writer.done();
    expect(chunks).toEqual(['data: 1\n\n', 'data: 2\n\ndata: 3\n\ndata: [DONE]\n\n']);
  });
});
