import { expect, it } from 'vitest';
import { buildPdf } from '../../support/hostile-documents.js';
import { dataUrl, OTHER_KEY_WORST_MS, probedGatewayForFile, underProbe } from '../../support/under-probe.js';
import type { TestGateway } from '../../support/start-gateway.js';

// Issue 31, finding 13: a malformed PDF answered 502 "provider failed", as if the engine had broken,
// instead of 422 saying the document cannot be read.

let gateway: TestGateway;
let member: string;
probedGatewayForFile((started) => void ({ gateway, member } = started));

it('answers a PDF whose page is not a page with 422 invalid_document, on /v1/ocr and /v1/ocr/render', async () => {
  // The page tree counts one page, but its kid is a number.
  const pdf = buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', '42']);
  const { status, body, report } = await underProbe(gateway, member, async () => {
    const rendered = await gateway.request('/v1/ocr/render', {
      method: 'POST',
      json: { image: dataUrl(pdf, 'application/pdf') },
    });
    expect(rendered.status).toBe(422);
    expect(await rendered.json()).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      code: 'invalid_document',
    });
    return gateway.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(pdf, 'application/pdf') } });
  });
  expect(status).toBe(422);
  expect(body).toMatchObject({ object: 'error', type: 'invalid_request_error', code: 'invalid_document' });
  expect(body.message).toMatch(/could not be read/);
  expect(report.worstMs).toBeLessThan(OTHER_KEY_WORST_MS);
  expect(report.peakRssGrowthMiB).toBeLessThan(250);
});
