import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMemberKey } from '../support/latency-probe.js';
import { dataUrl, underProbe } from '../support/under-probe.js';
import { startGateway, type TestGateway } from '../support/start-gateway.js';

// Issue 31, finding 6: a BMP was decoded before its pixel check: a 1-bit 16000 × 16000 BMP reached
// 1.24 GB before its 413, and three at once froze everyone 24 s. Here a 1-bit 7000 × 7000 BMP
// (49 megapixels, 6 MB): its size comes from the header, before anything is allocated.

let gateway: TestGateway;
let member: string;

beforeAll(async () => {
  gateway = await startGateway();
  member = await createMemberKey(gateway);
});
afterAll(() => gateway.close());

/** A 1-bit bottom-up BMP of `side` × `side` white pixels. */
function oneBitBmp(side: number): Buffer {
  const stride = Math.ceil(side / 32) * 4;
  const pixelOffset = 14 + 40 + 8;
  const bmp = Buffer.alloc(pixelOffset + stride * side, 0xff);
  bmp.write('BM', 0, 'latin1');
  bmp.writeUInt32LE(bmp.length, 2);
  bmp.writeUInt32LE(0, 6);
  bmp.writeUInt32LE(pixelOffset, 10);
  bmp.writeUInt32LE(40, 14);
  bmp.writeInt32LE(side, 18);
  bmp.writeInt32LE(side, 22);
  bmp.writeUInt16LE(1, 26);
  bmp.writeUInt16LE(1, 28);
  bmp.writeUInt32LE(0, 30);
  bmp.writeUInt32LE(stride * side, 34);
  bmp.fill(0, 38, 54);
  bmp.writeUInt32LE(2, 46);
  // Palette: black, white.
  bmp.writeUInt32LE(0x00000000, 54);
  bmp.writeUInt32LE(0x00ffffff, 58);
  return bmp;
}

const upload = (bmp: Buffer) => gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(bmp, 'image/bmp') } });

it('refuses a huge BMP from its header with 413 naming max_pixels, while another key is served and memory stays flat', async () => {
  const bmp = oneBitBmp(7_000);
  const { status, body, report } = await underProbe(gateway, member, () => upload(bmp));
  expect(status).toBe(413);
  expect(body).toMatchObject({ object: 'error', type: 'invalid_request_error', code: 'image_too_large', param: 'max_pixels' });
  expect(body.message).toMatch(/7000×7000/);
  expect(report.worstMs).toBeLessThan(1000);
  expect(report.peakRssGrowthMiB).toBeLessThan(250);
});
