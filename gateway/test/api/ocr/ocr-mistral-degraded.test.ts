import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEGRADATIONS, makeDegradedPage, makeInvoiceImage } from '../../support/draw-text.js';
import { json, startGateway, type Json, type TestGateway } from '../../support/start-gateway.js';

/** Scans as users bring them: no figure is made of noise, so no text is lost to one. */
let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway({ warm: true });
  while ((await gateway.request('/status', { key: null })).status !== 200)
    await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(async () => {
  await gateway.close();
});

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);

describe("Mistral's form on degraded scans", () => {
  it.each(['noise', 'jpeg_q12', 'low_contrast', 'uneven_light'] satisfies (keyof typeof DEGRADATIONS)[])(
    '%s: no figure made of noise, the markdown keeps the words the text result has',
    async (name) => {
      const page = await makeDegradedPage(name);
      const document = {
        type: 'image_url',
        image_url: `data:${page.mimeType};base64,${page.image.toString('base64')}`,
      };
      const mistral = await json(await gateway.request('/v1/ocr', { method: 'POST', json: { document } }));
      const spec = await json(
        await gateway.request('/v1/ocr', { method: 'POST', json: { image: document.image_url, return_bboxes: false } }),
      );
      expect(mistral.pages[0].images).toEqual([]);
      const kept = words(mistral.pages[0].markdown);
      const read = [...words(spec.text)];
      expect(read.filter((word) => kept.has(word)).length).toBe(read.length);
    },
  );

  it('an invoice with ruled table: no figure made of the rules', async () => {
    const invoice = await makeInvoiceImage();
    const body = await json(
      await gateway.request('/v1/ocr', {
        method: 'POST',
        json: {
          document: { type: 'image_url', image_url: `data:image/png;base64,${invoice.image.toString('base64')}` },
          include_blocks: true,
        },
      }),
    );
    expect(body.pages[0].images).toEqual([]);
    expect(body.pages[0].markdown).toContain(invoice.fields.invoice_number);
    expect(body.pages[0].blocks.map((block: Json) => block.type)).toContain('table');
  });
});
