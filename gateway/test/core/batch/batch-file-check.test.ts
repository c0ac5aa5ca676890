import { describe, expect, it } from 'vitest';
import { checkBatchFile } from '../../../src/core/batch/batch-file-check.js';

const line = (index: number) =>
  JSON.stringify({
    custom_id: `r${index}`,
    method: 'POST',
    url: '/v1/chat/completions',
    body: { model: 'svc-large-3', messages: [{ role: 'user', content: `question ${index}` }] },
  });

describe('checkBatchFile', () => {
  it('reads lines split across chunks of a stream, and sums up the endpoint and the models with their first line', async () => {
    const text = `${line(0)}\r\n${JSON.stringify({ custom_id: 'e', body: { model: 'other', input: 'x' } })}\n${line(2)}`;
    const bytes = new TextEncoder().encode(text);
    async function* pieces() {
      for (let start = 0; start < bytes.length; start += 7) yield bytes.subarray(start, start + 7);
    }
    const summary = await checkBatchFile(pieces());
    expect(summary).toEqual({
      url: '/v1/chat/completions',
      models: new Map([
        ['svc-large-3', 1],
        ['other', 2],
      ]),
      requests: 3,
    });
  });

  it('checks a 100,000-line (15 MB) file a slice at a time: other work runs between the slices', async () => {
    const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, index) => line(index)).join('\n'));
    let turns = 0;
    const ticker = setInterval(() => (turns += 1), 0);
    const started = performance.now();
    const summary = await checkBatchFile(bytes);
    clearInterval(ticker);
    console.log(
      `${(bytes.length / 1e6).toFixed(1)} MB checked in ${Math.round(performance.now() - started)} ms, ${turns} timer turns ran meanwhile`,
    );
    expect(summary.requests).toBe(100_000);
    // Checked in one go, no timer would run until the end.
    expect(turns).toBeGreaterThanOrEqual(20);
  });
});
