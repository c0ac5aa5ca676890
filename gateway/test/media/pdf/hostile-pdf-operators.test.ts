import { deflateSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { onePagePdf } from '../../support/hostile-documents.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../../support/under-probe.js';
import type { TestGateway } from '../../support/start-gateway.js';

// Issue 31, finding 5: 200,000 text-show operators (25 KB) froze everyone 23 s, then answered 502
// "Maximum call stack size exceeded". Operators are counted before pdf.js reads the page.

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started));

it('refuses a page of 200,000 text-show operators with 413 naming the limit, while another key is served', async () => {
  const content = Buffer.from(`BT /F1 12 Tf 72 700 Td ${'(a) Tj '.repeat(200_000)}ET`, 'latin1');
  const pdf = onePagePdf(
    { dictionary: '/Filter /FlateDecode', data: deflateSync(content, { level: 9 }) },
    '<< /Font << /F1 5 0 R >> >>',
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  );
  expect(pdf.length).toBeLessThan(30_000);
  const { status, body, report } = await underProbe(gateway, member, () =>
    gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(pdf, 'application/pdf') } }),
  );
  expect(status).toBe(413);
  expect(body).toMatchObject({ object: 'error', type: 'invalid_request_error', code: 'pdf_page_too_complex' });
  expect(body.message).toMatch(/150,000 operators/);
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(250);
});
