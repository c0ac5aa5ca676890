import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { drawTextImage, proseLines } from '../../support/draw-text.js';
import { buildPdf } from '../../support/hostile-documents.js';
import { parsePrometheusText, sampleValue } from '../../support/prometheus-text.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../../support/under-probe.js';
import type { TestGateway } from '../../support/start-gateway.js';

// Issue 31, finding 15: when one page of a PDF failed, the pages already running kept reading (and
// recognising) while the document was destroyed under them, and the request answered 502 at once.
// Now the failure stops the other pages' work first and the request answers 422.

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started), { warm: true });
beforeAll(async () => {
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
});

/** A scanned page's image: prose drawn at 200 DPI (the engine's render resolution), as a gray image XObject. */
async function scannedPage(): Promise<{ dictionary: string; data: Buffer }> {
  const drawn = await drawTextImage(proseLines(20, 60, 40, 30), { width: 1100, height: 1500 });
  const { data, info } = await sharp(drawn.image).grayscale().raw().toBuffer({ resolveWithObject: true });
  return {
    dictionary: `/Type /XObject /Subtype /Image /Width ${info.width} /Height ${info.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
    data: deflateSync(data),
  };
}

it('stops the other pages when one page fails, then answers 422 invalid_document', async () => {
  // The first page of the tree is not a page; pages 2 and 3 are scans to recognise, read while the first fails.
  const [width, height] = [(1100 * 72) / 200, (1500 * 72) / 200];
  const page = (image: number, contents: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents ${contents} 0 R /Resources << /XObject << /Im1 ${image} 0 R >> >> >>`;
  const draw = { dictionary: '', data: Buffer.from(`q ${width} 0 0 ${height} 0 0 cm /Im1 Do Q`, 'latin1') };
  const pdf = buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [5 0 R 3 0 R 4 0 R] /Count 3 >>',
    page(6, 8),
    page(7, 8),
    '42',
    await scannedPage(),
    await scannedPage(),
    draw,
  ]);
  const { status, body, report } = await underProbe(gateway, member, () =>
    gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(pdf, 'application/pdf') } }),
  );
  expect(status).toBe(422);
  expect(body).toMatchObject({ object: 'error', type: 'invalid_request_error', code: 'invalid_document' });
  // Nothing of the request runs once it has answered: no scan goes on to be recognised.
  const queue = { switchyard_provider_id: 'local-ocr', queue: 'ocr_workers' };
  for (let look = 0; look < 10; look++) {
    const samples = parsePrometheusText(await (await gateway.request('/metrics')).text());
    expect(sampleValue(samples, 'switchyard_engine_queue_requests', { ...queue, state: 'running' })).toBe(0);
    expect(sampleValue(samples, 'switchyard_engine_queue_requests', { ...queue, state: 'waiting' })).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(300);
});
