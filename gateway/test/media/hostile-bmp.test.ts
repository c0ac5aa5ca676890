import { expect, it } from 'vitest';
import { oneBitBmp } from '../support/hostile-documents.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../support/under-probe.js';
import type { TestGateway } from '../support/start-gateway.js';

// Issue 31, finding 6: a BMP was decoded before its pixel check: a 1-bit 16000 × 16000 BMP reached
// 1.24 GB before its 413, and three at once froze everyone 24 s. Here a 1-bit 8000 × 8000 BMP
// (64 megapixels, 8 MB): its size comes from the header, before anything is allocated.

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started));

const upload = (bmp: Buffer) =>
  gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(bmp, 'image/bmp') } });

it('refuses a huge BMP from its header with 413 naming max_pixels, while another key is served and memory stays flat', async () => {
  const bmp = oneBitBmp(8_000);
  const { status, body, report } = await underProbe(gateway, member, () => upload(bmp));
  expect(status).toBe(413);
  expect(body).toMatchObject({
    object: 'error',
    type: 'invalid_request_error',
    code: 'image_too_large',
    param: 'max_pixels',
  });
  expect(body.message).toMatch(/8000×8000/);
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(250);
});
