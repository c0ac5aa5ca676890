import { Mistral } from '@mistralai/mistralai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage, makeTextPdf, seededRandom, type DrawnImage } from '../../support/draw-text.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { ADMIN_KEY, json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, ocrWithLanguageModelsConfig } from '../../support/upstream-config.js';
import { scriptedChatAnswer } from '../../support/scripted-chat-answer.js';

/** POST /v1/ocr in Mistral's form (document: image_url | document_url | file), over HTTP and through the official SDK. */
let upstream: FakeUpstream;
let gateway: TestGateway;
let report: Buffer;
let pdf: Buffer;

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
const ocr = (body: Record<string, unknown>) => gateway.request('/v1/ocr', { method: 'POST', json: body });
const chatAnswer = (content: string, path = '/v1/chat/completions') => scriptedChatAnswer(content, { path });

/** FIGURE: where the "photo" sits on the generated report page. */
const FIGURE = { left: 60, top: 330, width: 420, height: 240 };

/** A report page: a large heading, a paragraph, a numbered list, and a photo-like picture with no text. */
async function makeReportPage(): Promise<DrawnImage> {
  const page = await drawTextImage(
    [
      { text: 'Annual Review', x: 60, y: 90, size: 48 },
      { text: 'Sales grew in every region this year and the', x: 60, y: 160, size: 22 },
      { text: 'team opened two new offices in the spring.', x: 60, y: 192, size: 22 },
      { text: '1. Hire two engineers', x: 80, y: 250, size: 22 },
      { text: '2. Open the Lyon office', x: 80, y: 284, size: 22 },
      { text: 'Costs stayed flat while orders kept rising.', x: 60, y: 640, size: 22 },
    ],
    { width: 820, height: 720 },
  );
  const random = seededRandom(7);
  const photo = Buffer.alloc(FIGURE.width * FIGURE.height * 3);
  for (let y = 0; y < FIGURE.height; y++) {
    for (let x = 0; x < FIGURE.width; x++) {
      const base = 90 + Math.round(60 * Math.sin(x / 23) * Math.cos(y / 17));
      for (let c = 0; c < 3; c++)
        photo[(y * FIGURE.width + x) * 3 + c] = Math.max(0, Math.min(255, base + c * 25 + Math.round(random() * 30)));
    }
  }
  const image = await sharp(page.image)
    .composite([
      {
        input: photo,
        raw: { width: FIGURE.width, height: FIGURE.height, channels: 3 },
        left: FIGURE.left,
        top: FIGURE.top,
      },
    ])
    .png()
    .toBuffer();
  return { ...page, image };
}

/** Two A4 pages, each with a running header and footer, body text and (on page 1) a table. */
async function makeLetterPdf(): Promise<Buffer> {
  const band = (n: number) => [
    { text: 'ACME Quarterly Letter', x: 60, y: 40, size: 9 },
    { text: `Page ${n} of 2`, x: 270, y: 815, size: 9 },
  ];
  const made = await makeTextPdf([
    {
      lines: [
        ...band(1),
        { text: 'Orders this quarter', x: 60, y: 140, size: 20 },
        { text: 'We shipped more parts than in any quarter before.', x: 60, y: 190, size: 12 },
        { text: 'Part', x: 60, y: 260, size: 12 },
        { text: 'Units', x: 300, y: 260, size: 12 },
        { text: 'Price', x: 450, y: 260, size: 12 },
        { text: 'Bolts', x: 60, y: 285, size: 12 },
        { text: '1200', x: 300, y: 285, size: 12 },
        { text: '0.15', x: 450, y: 285, size: 12 },
        { text: 'Nuts', x: 60, y: 310, size: 12 },
        { text: '900', x: 300, y: 310, size: 12 },
        { text: '0.10', x: 450, y: 310, size: 12 },
      ],
    },
    { lines: [...band(2), { text: 'The second page closes the letter with thanks.', x: 60, y: 190, size: 12 }] },
  ]);
  return made.pdf;
}

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await startGateway({
    warm: true,
    config: ocrWithLanguageModelsConfig(upstream),
  });
  report = (await makeReportPage()).image;
  pdf = await makeLetterPdf();
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe("POST /v1/ocr in Mistral's form", () => {
  it('answers an image with Mistral pages: markdown with heading, paragraph, list and figure, blocks, the figure cropped', async () => {
    const response = await ocr({
      model: 'svc-ocr-3',
      document: { type: 'image_url', image_url: dataUrl(report) },
      include_blocks: true,
      include_image_base64: true,
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(Object.keys(body).sort()).toEqual(['model', 'pages', 'usage_info']);
    expect(body.model).toBe('svc-ocr-3-2512');
    expect(body.usage_info).toEqual({ pages_processed: 1, doc_size_bytes: report.length });
    const [page] = body.pages;
    expect(page).toMatchObject({
      index: 0,
      tables: [],
      hyperlinks: [],
      header: null,
      footer: null,
      dimensions: { dpi: 72, width: 820, height: 720 },
    });
    expect(page.markdown).toMatch(
      /^# Annual Review\n\nSales grew in every region this year and the team opened two new offices in the spring\.\n\n1\. Hire two engineers\n2\. Open the Lyon office\n\n!\[img-0\.jpeg\]\(img-0\.jpeg\)\n\nCosts stayed flat/,
    );
    expect(page.images).toHaveLength(1);
    const [image] = page.images;
    expect(image.id).toBe('img-0.jpeg');
    expect(Math.abs(image.top_left_x - FIGURE.left)).toBeLessThanOrEqual(12);
    expect(Math.abs(image.top_left_y - FIGURE.top)).toBeLessThanOrEqual(12);
    expect(Math.abs(image.bottom_right_x - (FIGURE.left + FIGURE.width))).toBeLessThanOrEqual(12);
    expect(Math.abs(image.bottom_right_y - (FIGURE.top + FIGURE.height))).toBeLessThanOrEqual(12);
    expect(image.image_base64).toMatch(/^data:image\/jpeg;base64,/);
    const crop = await sharp(Buffer.from(image.image_base64.split(',')[1], 'base64')).metadata();
    expect(crop).toMatchObject({
      format: 'jpeg',
      width: image.bottom_right_x - image.top_left_x,
      height: image.bottom_right_y - image.top_left_y,
    });
    expect(page.blocks.map((block: Json) => block.type)).toEqual(['title', 'text', 'list', 'image', 'text']);
    expect(page.blocks[3]).toMatchObject({
      image_id: 'img-0.jpeg',
      top_left_x: image.top_left_x,
      bottom_right_y: image.bottom_right_y,
    });
    expect(page.blocks[0].top_left_y).toBeLessThan(page.blocks[1].top_left_y);
  });

  it('honours image_limit and image_min_size', async () => {
    const document = { type: 'image_url', image_url: dataUrl(report) };
    const none = await json(await ocr({ document, image_limit: 0 }));
    expect(none.pages[0].images).toEqual([]);
    expect(none.pages[0].markdown).toMatch(/Open the Lyon office\n\nCosts stayed flat/);
    const tooSmall = await json(await ocr({ document, image_min_size: FIGURE.width + 20 }));
    expect(tooSmall.pages[0].images).toEqual([]);
  });

  it('answers a two-page PDF: header and footer apart, the table as HTML, confidences by word, the pages asked for', async () => {
    const body = await json(
      await ocr({
        document: { type: 'document_url', document_url: dataUrl(pdf, 'application/pdf'), document_name: 'letter.pdf' },
        table_format: 'html',
        extract_header: true,
        extract_footer: true,
        include_blocks: true,
        confidence_scores_granularity: 'word',
        image_limit: 0,
      }),
    );
    expect(body.usage_info).toEqual({ pages_processed: 2, doc_size_bytes: pdf.length });
    const [first, second] = body.pages;
    expect(first).toMatchObject({
      index: 0,
      header: 'ACME Quarterly Letter',
      footer: 'Page 1 of 2',
      dimensions: { dpi: 200 },
    });
    expect(second).toMatchObject({
      index: 1,
      header: 'ACME Quarterly Letter',
      footer: 'Page 2 of 2',
      markdown: 'The second page closes the letter with thanks.',
    });
    expect(first.markdown).toBe(
      '## Orders this quarter\n\nWe shipped more parts than in any quarter before.\n\n[tbl-0.html](tbl-0.html)',
    );
    expect(first.tables).toEqual([
      expect.objectContaining({
        id: 'tbl-0.html',
        format: 'html',
        content:
          '<table><tr><th>Part</th><th>Units</th><th>Price</th></tr><tr><td>Bolts</td><td>1200</td><td>0.15</td></tr><tr><td>Nuts</td><td>900</td><td>0.10</td></tr></table>',
      }),
    ]);
    expect(first.blocks.map((block: Json) => block.type)).toEqual(['header', 'title', 'text', 'table', 'footer']);
    expect(first.blocks[3].table_id).toBe('tbl-0.html');
    const scores = first.confidence_scores;
    expect(scores.average_page_confidence_score).toBeGreaterThan(0.9);
    expect(scores.word_confidence_scores[0]).toEqual({
      text: 'Orders',
      confidence: expect.any(Number),
      start_index: 3,
    });
    for (const word of scores.word_confidence_scores)
      expect(first.markdown.slice(word.start_index, word.start_index + word.text.length)).toBe(word.text);

    const secondOnly = await json(
      await ocr({ document: { type: 'document_url', document_url: dataUrl(pdf, 'application/pdf') }, pages: '1' }),
    );
    expect(secondOnly.pages.map((page: Json) => page.index)).toEqual([1]);
    expect(secondOnly.pages[0].markdown).toBe(
      'ACME Quarterly Letter\n\nThe second page closes the letter with thanks.\n\nPage 2 of 2',
    );
  });

  it('reads an uploaded file by its id', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'letter.pdf');
    form.set('purpose', 'ocr');
    const uploaded = await json(await gateway.request('/v1/files', { method: 'POST', body: form }));
    const body = await json(await ocr({ document: { type: 'file', file_id: uploaded.id }, pages: [0] }));
    expect(body.pages[0].markdown).toContain('Orders this quarter');

    const missing = await ocr({ document: { type: 'file', file_id: 'file-nope' } });
    expect(missing.status).toBe(404);
    const member = await json(
      await gateway.request('/account/keys', { method: 'POST', json: { name: 'other member', role: 'member' } }),
    );
    const foreign = await gateway.request('/v1/ocr', {
      method: 'POST',
      key: member.key,
      json: { document: { type: 'file', file_id: uploaded.id } },
    });
    expect(foreign.status).toBe(404);
    expect(await json(missing)).toMatchObject({ object: 'error', code: 'file_not_found', param: 'file_id' });
  });

  it('fills document_annotation from document_annotation_format with the chat route, guided by the prompt', async () => {
    upstream.setBehaviour(chatAnswer(JSON.stringify({ title: 'Annual Review', offices: 2 })));
    const schema = {
      type: 'object',
      properties: { title: { type: 'string' }, offices: { type: 'integer' } },
      required: ['title'],
    };
    const body = await json(
      await ocr({
        document: { type: 'image_url', image_url: { url: dataUrl(report) } },
        document_annotation_format: { type: 'json_schema', json_schema: { name: 'report', schema, strict: true } },
        document_annotation_prompt: 'Count the offices opened.',
      }),
    );
    expect(JSON.parse(body.document_annotation)).toEqual({ title: 'Annual Review', offices: 2 });
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.messages[0].content).toContain('Count the offices opened.');
    expect(sent.messages[1].content).toContain('Annual Review');
  });

  it("fills each figure's image_annotation with the vision route, which sees the crop", async () => {
    upstream.setBehaviour(chatAnswer(JSON.stringify({ kind: 'photo' })));
    const body = await json(
      await ocr({
        document: { type: 'image_url', image_url: dataUrl(report) },
        bbox_annotation_format: {
          type: 'json_schema',
          json_schema: {
            name: 'figure',
            schema: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
          },
        },
      }),
    );
    expect(body.pages[0].images[0]).toMatchObject({ image_annotation: '{"kind":"photo"}' });
    expect(body.pages[0].images[0]).not.toHaveProperty('image_base64');
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.model).toBe('seer');
    expect(sent.messages[1].content[1].image_url.url).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('passes an upstream Mistral OCR route through: its markdown becomes the page markdown', async () => {
    const body = await json(
      await ocr({ model: 'mistral-ocr-latest', document: { type: 'image_url', image_url: dataUrl(report) } }),
    );
    expect(body.model).toBe('mistral-ocr-latest');
    expect(typeof body.pages[0].markdown).toBe('string');
    expect(upstream.requests.at(-1)!.path).toBe('/v1/ocr');
  });

  it('refuses bad Mistral fields with a clear 422 naming the field', async () => {
    const document = { type: 'image_url', image_url: dataUrl(report) };
    const cases: [Record<string, unknown>, string][] = [
      [{ document, pages: '3-1' }, 'pages'],
      [{ document, pages: 'x' }, 'pages'],
      [{ document, document_annotation_prompt: 'what?' }, 'document_annotation_prompt'],
      [{ document, document_annotation_format: { type: 'json_object' } }, 'document_annotation_format'],
      [
        {
          document,
          document_annotation_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'strin' } } },
        },
        'document_annotation_format',
      ],
    ];
    for (const [body, param] of cases) {
      const response = await ocr(body);
      expect(response.status, param).toBe(422);
      expect(await json(response)).toMatchObject({
        object: 'error',
        type: 'invalid_request_error',
        param: expect.stringContaining(param),
      });
    }
    const badType = await ocr({ document, table_format: 'csv' });
    expect([400, 422]).toContain(badType.status);
  });
});

describe('the official @mistralai/mistralai SDK, unchanged: ocr.process', () => {
  const client = () => new Mistral({ apiKey: ADMIN_KEY, serverURL: gateway.url });
  const everything = {
    includeBlocks: true,
    tableFormat: 'html',
    extractHeader: true,
    extractFooter: true,
    includeImageBase64: true,
    confidenceScoresGranularity: 'word',
  } as const;

  it('an image_url data URL, every option on', async () => {
    const result = await client().ocr.process({
      model: 'svc-ocr-3',
      document: { type: 'image_url', imageUrl: dataUrl(report) },
      ...everything,
    });
    expect(result.model).toBe('svc-ocr-3-2512');
    expect(result.usageInfo.pagesProcessed).toBe(1);
    const [page] = result.pages;
    expect(page.markdown).toContain('# Annual Review');
    expect(page.images[0]).toMatchObject({
      id: 'img-0.jpeg',
      imageBase64: expect.stringMatching(/^data:image\/jpeg;base64,/),
    });
    expect(page.blocks?.map((block) => block.type)).toContain('image');
    expect(page.confidenceScores?.wordConfidenceScores?.length).toBeGreaterThan(5);
    expect(page.dimensions).toEqual({ dpi: 72, width: 820, height: 720 });
  });

  it('a PDF document_url data URL, every option on', async () => {
    const result = await client().ocr.process({
      model: 'svc-ocr-3',
      document: { type: 'document_url', documentUrl: dataUrl(pdf, 'application/pdf') },
      ...everything,
    });
    expect(result.pages).toHaveLength(2);
    expect(result.pages[0]).toMatchObject({
      header: 'ACME Quarterly Letter',
      footer: 'Page 1 of 2',
      tables: [{ id: 'tbl-0.html', format: 'html' }],
    });
    expect(result.pages[0].blocks?.[0]).toMatchObject({ type: 'header', topLeftX: expect.any(Number) });
    expect(result.usageInfo).toEqual({ pagesProcessed: 2, docSizeBytes: pdf.length });
  });

  it('type file after an upload, with a document annotation', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'letter.pdf');
    form.set('purpose', 'ocr');
    const uploaded = await json(await gateway.request('/v1/files', { method: 'POST', body: form }));
    upstream.setBehaviour(chatAnswer(JSON.stringify({ pages: 2 })));
    const result = await client().ocr.process({
      model: 'svc-ocr-3',
      document: { type: 'file', fileId: uploaded.id },
      pages: [0, 1],
      documentAnnotationFormat: {
        type: 'json_schema',
        jsonSchema: {
          name: 'letter',
          schemaDefinition: { type: 'object', properties: { pages: { type: 'integer' } } },
        },
      },
      ...everything,
    });
    expect(result.pages.map((page) => page.index)).toEqual([0, 1]);
    expect(JSON.parse(result.documentAnnotation!)).toEqual({ pages: 2 });
  });
});

describe('without a route that can see images', () => {
  it('refuses bbox_annotation_format with a 422 that says how to add one', async () => {
    const bare = await startGateway();
    try {
      const response = await bare.request('/v1/ocr', {
        method: 'POST',
        json: {
          document: { type: 'image_url', image_url: dataUrl(report) },
          bbox_annotation_format: { type: 'json_schema', json_schema: { name: 'f', schema: { type: 'object' } } },
        },
      });
      expect(response.status).toBe(422);
      expect(await json(response)).toMatchObject({
        object: 'error',
        code: 'bbox_annotation_unavailable',
        param: 'bbox_annotation_format',
        message: expect.stringContaining("'vision' capability"),
      });
    } finally {
      await bare.close();
    }
  });
});
