import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawTextImage, makeInvoiceImage, makeTextPdf, type DrawnImage } from '../../support/draw-text.js';
import { startFakeUpstream, type FakeUpstream } from '../../support/fake-upstream.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';
import { UPSTREAM_KEY, ocrWithLanguageModelsConfig } from '../../support/upstream-config.js';
import { scriptedChatAnswer } from '../../support/scripted-chat-answer.js';

/** OCR, documents and vision when language-model routes exist: a chat route, a vision route, and Mistral's OCR. */
let upstream: FakeUpstream;
let gateway: TestGateway;
let page: DrawnImage;

const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;
const chatAnswer = (content: string) => scriptedChatAnswer(content);

beforeAll(async () => {
  upstream = await startFakeUpstream({ apiKey: UPSTREAM_KEY });
  gateway = await startGateway({
    config: ocrWithLanguageModelsConfig(upstream),
  });
  page = await drawTextImage([{ text: 'Meeting moved to Thursday', x: 30, y: 60, size: 28 }], {
    width: 480,
    height: 100,
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

describe('with a chat route', () => {
  it('fills a schema with the language model when its JSON validates', async () => {
    const invoice = await makeInvoiceImage();
    upstream.setBehaviour(chatAnswer(JSON.stringify({ invoice_number: 'INV-2024-0042', total_amount: 1234.5 })));
    const schema = {
      type: 'object',
      properties: { invoice_number: { type: 'string' }, total_amount: { type: 'number' } },
      required: ['invoice_number', 'total_amount'],
    };
    const body = await json(
      await gateway.request('/v1/ocr', {
        method: 'POST',
        json: { image: dataUrl(invoice.image, invoice.mimeType), structured_output: true, schema },
      }),
    );
    expect(body).toMatchObject({
      structured_method: 'language_model',
      structured_data: { invoice_number: 'INV-2024-0042', total_amount: 1234.5 },
    });
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.model).toBe('writer');
    expect(sent.response_format).toMatchObject({ type: 'json_schema', json_schema: { schema } });
    expect(sent.messages[1].content).toContain('INV-2024-0042');
  });

  it('falls back to the extractor when the model answers JSON that breaks the schema', async () => {
    const invoice = await makeInvoiceImage();
    upstream.setBehaviour(chatAnswer(JSON.stringify({ invoice_number: 42 })));
    const schema = {
      type: 'object',
      properties: { invoice_number: { type: 'string', description: 'Invoice number' } },
      required: ['invoice_number'],
    };
    const body = await json(
      await gateway.request('/v1/ocr', {
        method: 'POST',
        json: { image: dataUrl(invoice.image, invoice.mimeType), structured_output: true, schema },
      }),
    );
    expect(body).toMatchObject({
      structured_method: 'extractor',
      structured_data: { invoice_number: invoice.fields.invoice_number },
    });
  });

  it('answers document questions with the language model, citing the retrieved passages', async () => {
    const made = await makeTextPdf([
      { lines: [{ text: 'Refunds are issued within 30 days of purchase.', x: 72, y: 100, size: 14 }] },
    ]);
    upstream.setBehaviour(chatAnswer('Refunds are issued within 30 days [1].'));
    const body = await json(
      await gateway.request('/v1/chat/completions', {
        method: 'POST',
        json: {
          model: 'svc-ocr-3-2512',
          document: dataUrl(made.pdf, 'application/pdf'),
          question: 'When are refunds issued?',
        },
      }),
    );
    expect(body).toMatchObject({
      answer_method: 'language_model',
      choices: [{ message: { content: 'Refunds are issued within 30 days [1].' } }],
    });
    expect(body.citations[0].text).toContain('Refunds are issued within 30 days');
    expect(body.usage.total_tokens).toBe(49);
    expect((upstream.requests.at(-1)!.body as Json).messages[1].content).toContain('[1] (page 1) Refunds are issued');
  });

  it('explains local image facts with the chat route when no vision model is asked for', async () => {
    upstream.setBehaviour(chatAnswer('The image says the meeting moved to Thursday.'));
    const body = await json(
      await gateway.request('/v1/vision/analyze', {
        method: 'POST',
        json: { image: dataUrl(page.image), prompt: 'What changed?' },
      }),
    );
    expect(body).toMatchObject({
      method: 'local_with_chat',
      analysis: 'The image says the meeting moved to Thursday.',
    });
    expect((upstream.requests.at(-1)!.body as Json).messages[1].content).toContain('Meeting moved to Thursday');
  });
});

describe('with upstream vision and OCR routes', () => {
  it('sends the image itself to a vision-language route', async () => {
    const body = await json(
      await gateway.request('/v1/vision/analyze', {
        method: 'POST',
        json: { model: 'pixtral', image: dataUrl(page.image), prompt: 'Describe it' },
      }),
    );
    expect(body).toMatchObject({ object: 'vision.analysis', model: 'pixtral', method: 'vision_model' });
    const sent = upstream.requests.at(-1)!.body as Json;
    expect(sent.model).toBe('seer');
    expect(sent.messages[0].content[1].image_url.url).toMatch(/^data:image\/png;base64,/);
  });

  it('maps Mistral OCR to the OCR result shape', async () => {
    const response = await gateway.request('/v1/ocr', {
      method: 'POST',
      json: { model: 'mistral-ocr-latest', image: dataUrl(page.image) },
    });
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ object: 'ocr.result', model: 'mistral-ocr-latest', pages: [{ index: 0 }] });
    expect(typeof body.text).toBe('string');
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/ocr');
    expect((sent.body as Json).document.type).toBe('image_url');
  });
});
