import { deflateSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { onePagePdf, white16BitPng } from '../../support/hostile-documents.js';
import { dataUrl } from '../../support/under-probe.js';
import { json, startGateway, type TestGateway } from '../../support/start-gateway.js';

// The work pool's own limits (server.media_job_timeout_ms, server.media_job_memory_mb): a job past
// either has its thread stopped, and the request is answered in the error shape.

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

const ocr = (target: TestGateway, bytes: Buffer, type: string) =>
  target.request('/v1/ocr', { method: 'POST', json: { image: dataUrl(bytes, type) } });

it('stops a job past its time budget and answers 504 naming server.media_job_timeout_ms', async () => {
  // The smallest budget and a 36-megapixel 16-bit page, whose decoding and survey take seconds on any
  // machine (a 3000-pixel page at 300 ms finished in time on a quiet one).
  gateway = await startGateway({ config: { server: { media_job_timeout_ms: 100 } } });
  const response = await ocr(gateway, white16BitPng(6000), 'image/png');
  expect(response.status).toBe(504);
  expect(await json(response)).toMatchObject({
    object: 'error',
    type: 'server_error',
    code: 'document_too_slow',
    message: expect.stringContaining('server.media_job_timeout_ms'),
  });
  // The pool goes on: the next document is read on a fresh thread.
  const text = onePagePdf(
    {
      dictionary: '/Filter /FlateDecode',
      data: deflateSync(Buffer.from('BT /F1 24 Tf 72 700 Td (Still served) Tj ET', 'latin1')),
    },
    '<< /Font << /F1 5 0 R >> >>',
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  );
  const again = await ocr(gateway, text, 'application/pdf');
  expect([200, 504]).toContain(again.status);
});

it('stops a job past its heap limit and answers 413 naming server.media_job_memory_mb', async () => {
  gateway = await startGateway({ config: { server: { media_job_memory_mb: 32 } } });
  // 120,000 short text runs: under the operator limit, but their text items need more than 32 MiB of heap.
  const content = Buffer.from(`BT /F1 1 Tf ${'(ab) Tj 0 1 Td '.repeat(60_000)}ET`, 'latin1');
  const pdf = onePagePdf(
    { dictionary: '/Filter /FlateDecode', data: deflateSync(content) },
    '<< /Font << /F1 5 0 R >> >>',
    ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'],
  );
  const response = await ocr(gateway, pdf, 'application/pdf');
  expect(response.status).toBe(413);
  expect(await json(response)).toMatchObject({
    object: 'error',
    type: 'invalid_request_error',
    code: 'document_too_large',
    message: expect.stringContaining('server.media_job_memory_mb'),
  });
});
