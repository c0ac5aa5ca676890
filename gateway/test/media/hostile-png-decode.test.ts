import { expect, it } from 'vitest';
import { white16BitPng } from '../support/hostile-documents.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../support/under-probe.js';
import type { TestGateway } from '../support/start-gateway.js';

// Issue 31, finding 8: images were decoded and measured on the event loop: 8 OCRs of a 6300 × 6300
// 16-bit PNG (under the pixel limit) stalled everyone 21.9 s. Here 4 of 3000 × 3000: decoding and
// the page's pixel work (its survey, preprocessing) now run on the work pool's threads.

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started));

it('reads 4 large 16-bit PNGs at once while another key is served', async () => {
  const png = white16BitPng(3000);
  expect(png.length).toBeLessThan(100_000);
  const { status, body, report } = await underProbe(gateway, member, async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(png, 'image/png') } }),
      ),
    );
    for (const answer of answers.slice(1)) {
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    return answers[0];
  });
  expect(status).toBe(200);
  expect(body.pages).toMatchObject([{ index: 0, width: 3000, height: 3000, text: '' }]);
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(450);
});
