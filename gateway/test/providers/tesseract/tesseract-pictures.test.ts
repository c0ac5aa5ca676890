import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import type { OcrRequest, OcrResult } from '../../../src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import { drawTextImage, seededRandom } from '../../support/draw-text.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A photo-like picture: no text, textured. */
async function photo(width: number, height: number): Promise<Buffer> {
  const random = seededRandom(3);
  const raw = Buffer.alloc(width * height);
  for (let i = 0; i < raw.length; i++)
    raw[i] = Math.round(100 + 50 * Math.sin(i / 17) * Math.cos(i / (width * 13)) + random() * 30);
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

describe("tesseract provider: a page's picture areas, read from the pixels it read the page from", () => {
  let provider: ProviderInstance;
  const ocr = (document: Buffer, extra: Partial<OcrRequest>): Promise<OcrResult> =>
    provider.capabilities.ocr!.ocr({
      model: 'svc-ocr-3-2512',
      document,
      mimeType: 'image/png',
      signal: new AbortController().signal,
      ...extra,
    });

  beforeAll(() => {
    provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1, render_dpi: 100 },
      dataDir: '/tmp',
      logger,
    });
  });
  afterAll(() => provider.close());

  it('an image: its density and the picture beside its text, only when asked', async () => {
    const page = await drawTextImage([{ text: 'Quarterly report', x: 40, y: 60, size: 30 }], {
      width: 600,
      height: 500,
    });
    const image = await sharp(page.image)
      .composite([{ input: await photo(300, 200), left: 60, top: 200 }])
      .withMetadata({ density: 150 })
      .png()
      .toBuffer();
    const plain = await ocr(image, {});
    expect(plain.pages[0]).not.toHaveProperty('pictures');
    const [read] = (await ocr(image, { pictures: { minSize: null, keepImages: true } })).pages;
    expect(read.dpi).toBe(150);
    expect(read.pictures).toHaveLength(1);
    const [x1, y1, x2, y2] = read.pictures![0];
    expect(Math.abs(x1 - 60) + Math.abs(y1 - 200) + Math.abs(x2 - 360) + Math.abs(y2 - 400)).toBeLessThan(40);
    expect([read.image?.width, read.image?.height]).toEqual([600, 500]);
  });

  it('a PDF page with a text layer: rendered once at the render DPI for its pictures; no image kept unless asked', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const pdfPage = doc.addPage([432, 432]);
    pdfPage.drawText('Orders per month', { x: 36, y: 396, size: 14, font });
    pdfPage.drawImage(await doc.embedPng(await photo(300, 200)), { x: 36, y: 72, width: 216, height: 144 });
    const pdf = Buffer.from(await doc.save());
    const [page] = (await ocr(pdf, { mimeType: 'application/pdf', pictures: { minSize: null, keepImages: false } }))
      .pages;
    expect(page.source).toBe('text_layer');
    expect(page.dpi).toBe(100);
    expect([page.width, page.height]).toEqual([600, 600]);
    expect(page.pictures).toHaveLength(1);
    expect(page.image).toBeUndefined();
  });
});
