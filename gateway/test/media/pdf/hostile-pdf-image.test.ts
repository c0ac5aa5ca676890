import { expect, it } from 'vitest';
import { deflateBomb, onePagePdf } from '../../support/hostile-documents.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../../support/under-probe.js';
import type { TestGateway } from '../../support/start-gateway.js';

// Issue 31, finding 4: an image inside a PDF bypassed max_pixels: a 390 KB PDF showing a 20000 × 20000
// image on a small page took the gateway to 4.85 GB with 28-36 s stalls, on /v1/ocr and /v1/ocr/render.
// Here 12000 × 12000 (144 megapixels, 150 KB): the image's declared size is checked against the page
// limit before it is decoded (and pdf.js would leave out any image over it).

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started));

const side = 12_000;
const pdf = onePagePdf(
  { dictionary: '', data: Buffer.from('q 200 0 0 200 100 300 cm /Im1 Do Q', 'latin1') },
  '<< /XObject << /Im1 5 0 R >> >>',
  [
    {
      dictionary: `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`,
      data: deflateBomb(Math.ceil((side * side) / 2 ** 20), 0x80),
    },
  ],
);

it('refuses a PDF page showing a 144-megapixel image with 413 naming max_pixels, on /v1/ocr and /v1/ocr/render, while another key is served', async () => {
  expect(pdf.length).toBeLessThan(200_000);
  const { status, body, report } = await underProbe(gateway, member, async () => {
    const rendered = await gateway.request('/v1/ocr/render', {
      method: 'POST',
      json: { image: dataUrl(pdf, 'application/pdf') },
    });
    const renderedBody = await rendered.json();
    expect(rendered.status).toBe(413);
    expect(renderedBody).toMatchObject({ object: 'error', code: 'image_too_large', param: 'max_pixels' });
    return gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(pdf, 'application/pdf') } });
  });
  expect(status).toBe(413);
  expect(body).toMatchObject({
    object: 'error',
    type: 'invalid_request_error',
    code: 'image_too_large',
    param: 'max_pixels',
  });
  expect(body.message).toMatch(/12000×12000/);
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(250);
});
