import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createMemberKey } from '../../support/latency-probe.js';
import { oneWorkerEngine } from '../../support/one-worker-engine.js';
import { json } from '../../support/start-gateway.js';
import { useGateway } from '../../support/use-resources.js';

async function pngDataUrl(side: number): Promise<string> {
  const png = await sharp({ create: { width: side, height: side, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('OCR takes keys in turns', () => {
  it("one key's ten queued large OCRs delay another key's tiny OCR by at most the jobs already running, not the whole backlog", async () => {
    // 200 x 200 px at 10 µs per pixel: 400 ms a job on the engine's one worker; 10 of them, 4 s.
    const engine = oneWorkerEngine(10);
    const gateway = await useGateway({
      extras: { providerFactories: { 'one-worker': engine.factory } },
      config: { providers: [{ id: 'local-ocr', type: 'one-worker' }] },
    });
    const busy = await createMemberKey(gateway, 'busy');
    const other = await createMemberKey(gateway, 'other');
    const large = await pngDataUrl(200);
    const tiny = await pngDataUrl(10);

    const backlog = Array.from({ length: 10 }, () =>
      gateway.request('/v1/ocr', { method: 'POST', key: busy, json: { image: large } }),
    );
    // The backlog reaches the gateway first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const endedBefore = engine.finished.length;
    const started = performance.now();
    const answer = await gateway.request('/v1/ocr', { method: 'POST', key: other, json: { image: tiny } });
    const waitedMs = performance.now() - started;
    expect(answer.status).toBe(200);
    expect((await json(answer)).text).toBe('read 10');

    // The busy key has at most 2 jobs on the engine (server.ocr_concurrency_per_key), so the tiny one
    // ends after at most those 2; first in, first out it would end after all the rest (about 3.6 s).
    expect(engine.finished.indexOf(10) - endedBefore).toBeLessThanOrEqual(2);
    expect(waitedMs).toBeLessThan(2000);
    for (const response of await Promise.all(backlog)) {
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(engine.finished.filter((width) => width === 200)).toHaveLength(10);
  });
});
