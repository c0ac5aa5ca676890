import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGray } from '../../../src/media/image/decode-image.js';
import { sniffMediaType } from '../../../src/media/sniff-media-type.js';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import type { OcrRequest, OcrResult } from '../../../src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import { drawTextImage, makeTextPdf } from '../../support/draw-text.js';
import { toBmp } from '../../support/ocr-bmp.js';
import { makeEncryptedPdf } from '../../support/ocr-encrypted-pdf.js';
import sharp from 'sharp';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('media sniffing', () => {
  it('names every supported format from its magic bytes', async () => {
    const png = (await drawTextImage([{ text: 'x', x: 2, y: 10, size: 10 }], { width: 16, height: 16 })).image;
    const of = (format: 'jpeg' | 'webp' | 'tiff' | 'gif'): Promise<Buffer> => sharp(png).toFormat(format).toBuffer();
    expect(sniffMediaType(png)).toBe('image/png');
    expect(sniffMediaType(await of('jpeg'))).toBe('image/jpeg');
    expect(sniffMediaType(await of('webp'))).toBe('image/webp');
    expect(sniffMediaType(await of('tiff'))).toBe('image/tiff');
    expect(sniffMediaType(await of('gif'))).toBe('image/gif');
    expect(sniffMediaType(await toBmp(png))).toBe('image/bmp');
    expect(sniffMediaType((await makeTextPdf([{ lines: [] }])).pdf)).toBe('application/pdf');
    expect(sniffMediaType(Buffer.from('hello world'))).toBeNull();
    expect(sniffMediaType(Buffer.alloc(0))).toBeNull();
  });

  it('decodes every supported format to the same pixels', async () => {
    const png = (await drawTextImage([{ text: 'Hi', x: 4, y: 30, size: 28 }], { width: 48, height: 40 })).image;
    const reference = await decodeGray(png);
    for (const bytes of [
      await sharp(png).tiff({ compression: 'lzw' }).toBuffer(),
      await sharp(png).webp({ lossless: true }).toBuffer(),
      await toBmp(png),
    ]) {
      const decoded = await decodeGray(bytes);
      expect([decoded.width, decoded.height]).toEqual([48, 40]);
      let maxDiff = 0;
      for (let i = 0; i < decoded.data.length; i++)
        maxDiff = Math.max(maxDiff, Math.abs(decoded.data[i] - reference.data[i]));
      expect(maxDiff).toBeLessThanOrEqual(2);
    }
  });
});

describe('tesseract provider input errors', () => {
  let provider: ProviderInstance;
  const ocr = (document: Buffer, extra: Partial<OcrRequest> = {}): Promise<OcrResult> =>
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
      options: { type: 'tesseract', workers: 1, max_pages: 2, max_pixels: 1_000_000 },
      dataDir: '/tmp',
      logger,
    });
  });
  afterAll(() => provider.close());

  it('rejects an empty document', async () => {
    await expect(ocr(Buffer.alloc(0))).rejects.toMatchObject({ kind: 'invalid_input', code: 'empty_document' });
  });

  it('rejects bytes that are no image or PDF', async () => {
    await expect(ocr(Buffer.from('just some text, not an image'))).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'unsupported_media_type',
    });
  });

  it('rejects a truncated PNG as corrupt', async () => {
    const png = (await drawTextImage([{ text: 'Truncated', x: 10, y: 40, size: 30 }], { width: 300, height: 60 }))
      .image;
    const error = await ocr(png.subarray(0, Math.floor(png.length / 2))).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_input', code: 'corrupt_image' });
    expect((error as Error).message).toMatch(/corrupt or truncated/);
  });

  it('rejects a password-protected PDF', async () => {
    const error = await ocr(makeEncryptedPdf(), { mimeType: 'application/pdf' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'invalid_input', code: 'pdf_encrypted' });
    expect((error as Error).message).toMatch(/password/);
  });

  it('rejects a corrupt PDF', async () => {
    await expect(
      ocr(Buffer.from('%PDF-1.7\nthis is not really a pdf'), { mimeType: 'application/pdf' }),
    ).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'corrupt_pdf',
    });
  });

  it('names the limit when an image has too many pixels', async () => {
    const big = await sharp({ create: { width: 1200, height: 1000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const error = await ocr(big).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'too_large', param: 'max_pixels' });
    expect((error as Error).message).toMatch(/max_pixels limit of 1\.0 megapixels/);
  });

  it('names the limit when a PDF has too many pages, and rejects pages that do not exist', async () => {
    const made = await makeTextPdf(
      ['one', 'two', 'three'].map((text) => ({ width: 200, height: 200, lines: [{ text, x: 20, y: 40, size: 12 }] })),
    );
    const tooMany = await ocr(made.pdf, { mimeType: 'application/pdf' }).catch((e: unknown) => e);
    expect(tooMany).toMatchObject({ kind: 'too_large', code: 'too_many_pages' });
    expect((tooMany as Error).message).toMatch(/max_pages limit of 2/);
    await expect(ocr(made.pdf, { mimeType: 'application/pdf', pages: [5] })).rejects.toMatchObject({
      kind: 'invalid_input',
      code: 'page_out_of_range',
      param: 'pages',
    });
    const two = await ocr(made.pdf, { mimeType: 'application/pdf', pages: [1, 2] });
    expect(two.pages.map((p) => p.text)).toEqual(['two', 'three']);
  });

  it('rejects a PDF page that renders over the pixel limit', async () => {
    const made = await makeTextPdf([{ width: 1000, height: 1000, lines: [] }]);
    await expect(ocr(made.pdf, { mimeType: 'application/pdf' })).rejects.toMatchObject({
      kind: 'too_large',
      code: 'page_too_large',
    });
  });
});
