import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import type { OcrRequest, OcrResult } from '../../../src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import {
  drawTextImage,
  makeDegradedPage,
  makeInvoiceImage,
  makeSecondInvoiceImage,
  makeVariantPage,
  proseLines,
} from '../../support/draw-text.js';
import { toBmp } from '../../support/ocr-bmp.js';
import { matchWords, pageWords, wordRecall } from '../../support/ocr-assertions.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

function ocr(provider: ProviderInstance, document: Buffer, extra: Partial<OcrRequest> = {}): Promise<OcrResult> {
  return provider.capabilities.ocr!.ocr({
    model: 'svc-ocr-3-2512',
    document,
    mimeType: 'image/png',
    signal: new AbortController().signal,
    ...extra,
  });
}

describe('tesseract provider on images', () => {
  let provider: ProviderInstance;
  beforeAll(() => {
    provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1 },
      dataDir: '/tmp',
      logger,
    });
  });
  afterAll(() => provider.close());

  it('goes from cold to ready when warmed', async () => {
    expect(provider.status().state).toBe('cold');
    const warming = provider.warm!();
    expect(provider.status().state).toBe('loading');
    await warming;
    expect(provider.status().state).toBe('ready');
  });

  it('recognises drawn words and returns each box where the word was drawn', async () => {
    const drawn = await drawTextImage(proseLines(24, 50, 30, 3), { width: 820, height: 200 });
    const result = await ocr(provider, drawn.image);
    expect(result.pages).toHaveLength(1);
    const [page] = result.pages;
    expect(page).toMatchObject({ index: 0, width: 820, height: 200, source: 'ocr' });
    expect(page.text.replace(/\s+/g, ' ').trim()).toBe(drawn.text.replace(/\s+/g, ' '));
    const matches = matchWords(drawn.words, pageWords(page));
    expect(matches.filter((m) => m.iou <= 0.5)).toEqual([]);
    for (const word of pageWords(page)) {
      expect(word.confidence).toBeGreaterThan(0);
      expect(word.confidence).toBeLessThanOrEqual(1);
    }
    // Lines hold their words, blocks their lines, in reading order.
    expect(page.blocks[0].lines[0].text).toBe('The quick brown fox jumps over the lazy dog while');
  });

  it('reads a rotated, noisy page and maps boxes back onto the original pixels', async () => {
    const drawn = await drawTextImage(proseLines(20, 60, 40, 4), {
      width: 720,
      height: 260,
      rotate: 3,
      noise: 30,
      seed: 3,
    });
    const [page] = (await ocr(provider, drawn.image)).pages;
    expect(page.width).toBe(720);
    expect(page.height).toBe(260);
    expect(wordRecall(drawn.words, pageWords(page))).toBeGreaterThan(0.9);
    for (const word of pageWords(page)) {
      expect(word.bbox[0]).toBeGreaterThanOrEqual(0);
      expect(word.bbox[2]).toBeLessThanOrEqual(720);
      expect(word.bbox[3]).toBeLessThanOrEqual(260);
    }
  });

  it('reads small low-contrast JPEG text', async () => {
    const drawn = await makeDegradedPage('low_contrast');
    const [page] = (await ocr(provider, drawn.image, { mimeType: 'image/jpeg' })).pages;
    expect(wordRecall(drawn.words, pageWords(page))).toBeGreaterThan(0.85);
  });

  it('keeps table rules out of the text of a ruled invoice', async () => {
    const invoice = await makeInvoiceImage();
    const [page] = (await ocr(provider, invoice.image)).pages;
    expect(page.text).toContain('INV-2024-0042');
    expect(page.text).toContain('Total Due: $1,234.50');
    expect(page.text).not.toMatch(/[|_]/);
  });

  it('reads every word of a blurred page exactly, punctuation included', async () => {
    const drawn = await makeDegradedPage('blur');
    const [page] = (await ocr(provider, drawn.image)).pages;
    expect(page.text.replace(/\s+/g, ' ').trim()).toBe(drawn.text.replace(/\s+/g, ' '));
  });

  it('keeps the decimal points of amounts on rotated, noisy JPEG invoices', async () => {
    const first = await makeInvoiceImage({ rotate: 1.5, noise: 25, jpegQuality: 30 });
    const second = await makeSecondInvoiceImage({ rotate: -2, noise: 22, jpegQuality: 35, seed: 9 });
    const [a] = (await ocr(provider, first.image, { mimeType: 'image/jpeg' })).pages;
    const [b] = (await ocr(provider, second.image, { mimeType: 'image/jpeg' })).pages;
    for (const amount of ['12.50', '125.00', '299.50', '898.50', '211.00', '$1,234.50'])
      expect(a.text).toContain(amount);
    for (const amount of ['4.99', '61.45', '38.90', '466.80', '1,152.80', '$2,187.90'])
      expect(b.text).toContain(amount);
  });

  it('reads a grainy low-contrast page without inventing text in its background', async () => {
    const drawn = await makeVariantPage('low_contrast_b');
    const [page] = (await ocr(provider, drawn.image)).pages;
    expect(wordRecall(drawn.words, pageWords(page))).toBeGreaterThan(0.75);
    expect(pageWords(page).length).toBeLessThan(drawn.words.length * 1.3);
  });

  it('reads BMP images', async () => {
    const drawn = await drawTextImage([{ text: 'Bitmap reading works', x: 20, y: 50, size: 28 }], {
      width: 400,
      height: 80,
    });
    const [page] = (await ocr(provider, await toBmp(drawn.image), { mimeType: 'image/bmp' })).pages;
    expect(page.text.trim()).toBe('Bitmap reading works');
  });

  it('stops with an aborted error when the request is cancelled', async () => {
    const drawn = await makeDegradedPage('clean');
    const controller = new AbortController();
    controller.abort();
    await expect(ocr(provider, drawn.image, { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
  });
});
