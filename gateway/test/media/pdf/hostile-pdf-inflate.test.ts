import { expect, it } from 'vitest';
import { deflateBomb, onePagePdf } from '../../support/hostile-documents.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../../support/under-probe.js';
import type { TestGateway } from '../../support/start-gateway.js';

// Issue 31, finding 3: one page whose content stream inflates from 1 MB to 1 GiB held the gateway 78 s
// and took it from 180 MB to 2.5 GB. Here 192 MiB from 200 KB (before: 200 after 19 s, +530 MiB):
// over the 64 MiB a stream may inflate to, refused on a decoding thread before pdf.js reads it.

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started));

it('refuses a PDF decompression bomb with 413 naming the limit, while another key is served and memory stays flat', async () => {
  const pdf = onePagePdf({ dictionary: '/Filter /FlateDecode', data: deflateBomb(192) });
  expect(pdf.length).toBeLessThan(250_000);
  const { status, body, report } = await underProbe(gateway, member, () =>
    gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(pdf, 'application/pdf') } }),
  );
  expect(status).toBe(413);
  expect(body).toMatchObject({ object: 'error', type: 'invalid_request_error', code: 'pdf_stream_too_large' });
  expect(body.message).toMatch(/64 MiB/);
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(250);
});
