import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxIou, drawTextImage, makeInvoiceImage, makeTextPdf, type DrawnImage } from '../../support/draw-text.js';
import { makeEncryptedPdf } from '../../support/ocr-encrypted-pdf.js';
import { readSse } from '../../support/sse.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';

let gateway: TestGateway;
let page: DrawnImage;
let fileServer: Server;
let fileServerUrl: string;

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
const ocr = (body: Record<string, unknown>) => gateway.request('/v1/ocr', { method: 'POST', json: body });

beforeAll(async () => {
  gateway = await startGateway({ warm: true, config: { server: { url_fetch_allow: ['127.0.0.1'] } } });
  page = await drawTextImage(
    [
      { text: 'Quarterly report summary', x: 30, y: 60, size: 28 },
      { text: 'Revenue grew seven percent', x: 30, y: 120, size: 24 },
    ],
    { width: 520, height: 170 },
  );
  fileServer = createServer((request, response) => {
    if (request.url === '/page.png') response.writeHead(200, { 'content-type': 'image/png' }).end(page.image);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
  fileServerUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}`;
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(async () => {
  await gateway.close();
  fileServer.close();
});

describe('POST /v1/ocr, text and boxes', () => {
  it('recognises drawn words with word boxes where they were drawn, confidences in 0..1', async () => {
    const response = await ocr({ image: dataUrl(page.image) });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      object: 'ocr.result',
      model: 'svc-ocr-3-2512',
      granularity: 'word',
      pages: [{ index: 0, width: 520, height: 170, source: 'ocr' }],
    });
    expect(body.id).toMatch(/^ocr-/);
    expect(body.text).toContain('Quarterly report summary');
    expect(body.text).toContain('Revenue grew seven percent');
    for (const drawn of page.words) {
      const box = body.bboxes.find((candidate: Json) => candidate.text === drawn.text);
      expect(box, drawn.text).toBeDefined();
      expect(boxIou(box.bbox, drawn.bbox)).toBeGreaterThan(0.5);
      expect(box.confidence).toBeGreaterThan(0);
      expect(box.confidence).toBeLessThanOrEqual(1);
      expect(box.page).toBe(0);
    }
  });

  it('takes bare base64, a URL, and a multipart upload, with line granularity and without boxes', async () => {
    const base64 = await json(await ocr({ image: page.image.toString('base64'), return_bboxes: false }));
    expect(base64.text).toContain('Quarterly report');
    expect(base64).not.toHaveProperty('bboxes');

    const fromUrl = await json(await ocr({ image: `${fileServerUrl}/page.png`, granularity: 'line' }));
    expect(fromUrl.bboxes.map((box: Json) => box.text)).toEqual([
      'Quarterly report summary',
      'Revenue grew seven percent',
    ]);

    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(page.image)], { type: 'image/png' }), 'page.png');
    form.set('granularity', 'block');
    const uploaded = await gateway.request('/v1/ocr', { method: 'POST', body: form });
    expect(uploaded.status).toBe(200);
    const body = await json(uploaded);
    expect(body.granularity).toBe('block');
    expect(body.text).toContain('Revenue grew');
  });

  it("accepts Mistral's document field and answers in Mistral's shape (see ocr-mistral.test.ts)", async () => {
    const body = await json(
      await ocr({ model: 'svc-ocr-3', document: { type: 'image_url', image_url: dataUrl(page.image) } }),
    );
    expect(body.pages[0].markdown).toContain('Quarterly');
  });

  it('structured_output without a schema returns the layout with boxes', async () => {
    const body = await json(await ocr({ image: dataUrl(page.image), structured_output: true }));
    expect(body.structured_method).toBe('layout');
    expect(JSON.stringify(body.structured_data)).toContain('Quarterly');
    expect(JSON.stringify(body.structured_data)).toContain('bbox');
  });
});

describe('the schema variant', () => {
  it('fills structured_data from an invoice and validates it against the schema', async () => {
    const invoice = await makeInvoiceImage();
    const schema = {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'Invoice number' },
        invoice_date: { type: 'string' },
        total_amount: { type: 'number', description: 'Total amount due' },
      },
      required: ['invoice_number', 'total_amount'],
    };
    const response = await ocr({ image: dataUrl(invoice.image, invoice.mimeType), structured_output: true, schema });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body.structured_method).toBe('extractor');
    expect(body.structured_data).toMatchObject({
      invoice_number: invoice.fields.invoice_number,
      total_amount: invoice.fields.total_amount,
    });
  });

  it('422 naming the required fields it could not find, and for a schema without structured_output or an invalid one', async () => {
    const missing = await ocr({
      image: dataUrl(page.image),
      structured_output: true,
      schema: { type: 'object', properties: { iban: { type: 'string' } }, required: ['iban'] },
    });
    expect(missing.status).toBe(422);
    expect(await json(missing)).toMatchObject({ code: 'required_fields_not_found', param: 'schema' });
    expect(
      (
        await json(
          await ocr({
            image: dataUrl(page.image),
            structured_output: true,
            schema: { type: 'object', properties: { iban: { type: 'string' } }, required: ['iban'] },
          }),
        )
      ).message,
    ).toContain('iban');
    const notStructured = await ocr({ image: dataUrl(page.image), schema: { type: 'object' } });
    expect((await json(notStructured)).param).toBe('structured_output');
    const invalid = await ocr({ image: dataUrl(page.image), structured_output: true, schema: { type: 'nonsense' } });
    expect(invalid.status).toBe(422);
    expect((await json(invalid)).code).toBe('invalid_schema');
  });
});

describe('PDFs', () => {
  it('uses the text layer with pixel boxes, honours `pages`, and renders a page at the reported width', async () => {
    const made = await makeTextPdf([
      { lines: [{ text: 'First page heading', x: 72, y: 100, size: 20 }] },
      { lines: [{ text: 'Second page holds the answer', x: 72, y: 100, size: 20 }] },
    ]);
    const all = await json(await ocr({ image: dataUrl(made.pdf, 'application/pdf') }));
    expect(all.pages.map((entry: Json) => [entry.index, entry.source])).toEqual([
      [0, 'text_layer'],
      [1, 'text_layer'],
    ]);
    const scale = all.pages[0].width / 595;
    const heading = all.bboxes.find((box: Json) => box.text === 'First');
    const drawn = made.pages[0].words[0].bbox.map((value: number) => value * scale) as [number, number, number, number];
    expect(boxIou(heading.bbox, drawn)).toBeGreaterThan(0.5);

    const second = await json(await ocr({ image: dataUrl(made.pdf, 'application/pdf'), pages: [1] }));
    expect(second.text).toBe('Second page holds the answer');
    expect(second.bboxes.every((box: Json) => box.page === 1)).toBe(true);

    const rendered = await json(
      await gateway.request('/v1/ocr/render', {
        method: 'POST',
        json: { image: dataUrl(made.pdf, 'application/pdf'), page: 1, width: all.pages[1].width },
      }),
    );
    expect(rendered).toMatchObject({ page: 1, page_count: 2, width: all.pages[1].width, height: all.pages[1].height });
    const metadata = await sharp(Buffer.from(rendered.image.split(',')[1], 'base64')).metadata();
    expect([metadata.width, metadata.height]).toEqual([all.pages[1].width, all.pages[1].height]);
  });
});

describe('bad input gets a clear 4xx', () => {
  it.each([
    ['an empty file', { image: 'data:image/png;base64,' }, 422],
    ['a non-image', { image: dataUrl(Buffer.from('just some text, definitely not an image'), 'text/plain') }, 415],
    [
      'a corrupt PNG',
      {
        image: dataUrl(
          Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('broken')]),
        ),
      },
      422,
    ],
    ['a password-protected PDF', { image: dataUrl(makeEncryptedPdf(), 'application/pdf') }, 422],
    ['a cloud-metadata URL', { image: 'http://169.254.169.254/latest/meta-data/' }, 422],
    ['an unreachable URL', { image: 'http://127.0.0.1:9/nothing.png' }, 422],
    ['no image at all', {}, 422],
  ])('%s', async (_name, body, status) => {
    const response = await ocr(body);
    expect(response.status).toBe(status);
    const error = await json(response);
    expect(error).toMatchObject({
      object: 'error',
      type: 'invalid_request_error',
      message: expect.any(String),
      code: expect.any(String),
    });
  });

  it('names the encrypted PDF and the blocked address', async () => {
    expect((await json(await ocr({ image: dataUrl(makeEncryptedPdf(), 'application/pdf') }))).code).toBe(
      'pdf_encrypted',
    );
    expect((await json(await ocr({ image: 'http://169.254.169.254/latest/meta-data/' }))).code).toBe('url_not_allowed');
  });
});

describe('document question answering and image analysis', () => {
  it('answers from the right page of a two-page PDF, citing the passage (extractive without a chat route)', async () => {
    const made = await makeTextPdf([
      { lines: [{ text: 'The warranty covers parts for two years.', x: 72, y: 100, size: 14 }] },
      { lines: [{ text: 'Deliveries arrive within five business days.', x: 72, y: 100, size: 14 }] },
    ]);
    const response = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: {
        model: 'svc-ocr-3-2512',
        document: made.pdf.toString('base64'),
        question: 'How long do deliveries take?',
      },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ object: 'chat.completion', model: 'svc-ocr-3-2512', answer_method: 'extractive' });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.choices[0].message.content).toContain('five business days');
    expect(body.citations[0].page).toBe(1);
    expect(body.document_text.slice(body.citations[0].start, body.citations[0].end)).toContain('five business days');

    const viaMessages = await json(
      await gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: {
          model: 'svc-ocr-3-2512',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What does the warranty cover?' },
                { type: 'image_url', image_url: { url: dataUrl(made.pdf, 'application/pdf') } },
              ],
            },
          ],
        },
      }),
    );
    expect(viaMessages.choices[0].message.content).toContain('parts for two years');

    const streamed = await gateway.request('/v1/chat/completions', {
      method: 'POST',
      json: {
        model: 'svc-ocr-3-2512',
        document: made.pdf.toString('base64'),
        question: 'How long do deliveries take?',
        stream: true,
      },
    });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = await readSse(streamed);
    expect(frames.at(-1)).toBe('[DONE]');
    expect((frames[0] as Json).choices[0].delta.content).toContain('five business days');
    expect((frames[1] as Json).citations[0].page).toBe(1);
    // The last chunk carries delta.content too (SPEC: every chunk carries a text fragment).
    expect((frames[1] as Json).choices[0]).toEqual({ index: 0, delta: { content: '' }, finish_reason: 'stop' });
  });

  it('analyses an image locally: size, format, colours and its text', async () => {
    const response = await gateway.request('/v1/vision/analyze', {
      method: 'POST',
      json: { image: dataUrl(page.image), prompt: 'What does the text say?' },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      object: 'vision.analysis',
      model: 'svc-vision-3-1-2505',
      method: 'local',
      created: expect.any(Number),
    });
    expect(body.analysis).toContain('520×170');
    expect(body.analysis).toContain('Quarterly report summary');
    expect(body.details.colours[0].name).toBe('white');
    const bad = await gateway.request('/v1/vision/analyze', {
      method: 'POST',
      json: { image: dataUrl(Buffer.from('nope')), prompt: 'x' },
    });
    expect(bad.status).toBe(415);
  });
});
