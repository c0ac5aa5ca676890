import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import type { OcrRequest, OcrResult } from '../../../src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import { drawTextImage, makeScannedPdf, makeTextPdf, wordsAtDpi } from '../../support/draw-text.js';
import { matchWords, pageWords, wordRecall } from '../../support/ocr-assertions.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DPI = 150;

describe('tesseract provider on PDFs', () => {
  let provider: ProviderInstance;
  const ocr = (document: Buffer, extra: Partial<OcrRequest> = {}): Promise<OcrResult> =>
    provider.capabilities.ocr!.ocr({
      model: 'svc-ocr-3-2512',
      document,
      mimeType: 'application/pdf',
      signal: new AbortController().signal,
      ...extra,
    });

  beforeAll(() => {
    provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1, render_dpi: DPI },
      dataDir: '/tmp',
      logger,
    });
  });
  afterAll(() => provider.close());

  it('takes text and positions from the text layer', async () => {
    const made = await makeTextPdf([
      {
        lines: [
          { text: 'Quarterly report for Northwind Traders', x: 72, y: 100, size: 18 },
          { text: 'Revenue grew by 12 percent in the third quarter.', x: 72, y: 140, size: 11 },
        ],
      },
    ]);
    const [page] = (await ocr(made.pdf)).pages;
    expect(page.source).toBe('text_layer');
    expect(page.width).toBe(Math.ceil((595 * DPI) / 72));
    expect(page.height).toBe(Math.ceil((842 * DPI) / 72));
    expect(page.text.split(/\n+/)).toEqual([
      'Quarterly report for Northwind Traders',
      'Revenue grew by 12 percent in the third quarter.',
    ]);
    const matches = matchWords(wordsAtDpi(made.pages[0].words, DPI), pageWords(page));
    expect(matches.filter((m) => m.iou <= 0.5)).toEqual([]);
    expect(pageWords(page).every((w) => w.confidence === 1)).toBe(true);
  });

  it('recognises a scanned page that has no text layer, with boxes in rendered pixels', async () => {
    const scan = await drawTextImage(
      [
        { text: 'Scanned delivery note 5521', x: 40, y: 70, size: 30 },
        { text: 'Received in good condition', x: 40, y: 130, size: 30 },
      ],
      { width: 700, height: 180 },
    );
    // 700 px shown as 504 pt, so at 150 DPI the rendered page is ~1050 px wide.
    const made = await makeScannedPdf(scan);
    const [page] = (await ocr(made.pdf)).pages;
    expect(page.source).toBe('ocr');
    expect(page.text).toContain('Scanned delivery note 5521');
    expect(page.text).toContain('Received in good condition');
    expect(wordRecall(wordsAtDpi(made.pages[0].words, DPI), pageWords(page))).toBeGreaterThan(0.9);
  });

  it('processes only the selected pages, in document order, with their indices', async () => {
    const made = await makeTextPdf(
      ['Alpha page', 'Bravo page', 'Charlie page'].map((text) => ({ lines: [{ text, x: 72, y: 72, size: 14 }] })),
    );
    const result = await ocr(made.pdf, { pages: [2, 0] });
    expect(result.pages.map((p) => [p.index, p.text])).toEqual([
      [0, 'Alpha page'],
      [2, 'Charlie page'],
    ]);
    expect((await ocr(made.pdf)).pages).toHaveLength(3);
  });
});
