import { afterAll, describe, expect, it } from 'vitest';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import type { OcrPage, OcrRequest } from '../../../src/providers/contracts/ocr.js';
import type { ProviderInstance } from '../../../src/providers/contracts/provider-instance.js';
import {
  drawTextImage,
  makeInvoiceImage,
  makeTextPdf,
  type Degradation,
  type TextLineSpec,
} from '../../support/draw-text.js';
import { pageWords } from '../../support/ocr-assertions.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const LEFT = [
  'Rivers carry water from the hills to',
  'the sea, and along the way they shape',
  'valleys, feed farms and power mills.',
  'Engineers measure their flow each',
  'spring, when melting snow swells them',
  'and the old bridges are inspected.',
];
const RIGHT = [
  'Mountains rise where plates collide,',
  'pushing rock upward over millions of',
  'years until snow caps the highest',
  'peaks and glaciers carve the slopes',
  'into the wide valleys that farmers',
  'and walkers know so well today.',
];

/** A title over two columns of prose whose lines sit on the same baselines. */
function twoColumnPage(): ReturnType<typeof drawTextImage> {
  const lines: TextLineSpec[] = [{ text: 'Nature Notes Weekly', x: 60, y: 70, size: 34, bold: true }];
  LEFT.forEach((text, i) => lines.push({ text, x: 60, y: 150 + i * 36, size: 20 }));
  RIGHT.forEach((text, i) => lines.push({ text, x: 540, y: 150 + i * 36, size: 20 }));
  return drawTextImage(lines, { width: 1000, height: 400 });
}

const TABLE = [
  ['Region', 'Orders', 'Revenue'],
  ['North', '1200', '$4,310'],
  ['South', '950', '$2,075'],
  ['East', '430', '$1,980'],
  ['West', '815', '$3,402'],
];

function tablePage(): ReturnType<typeof drawTextImage> {
  const lines: TextLineSpec[] = [];
  TABLE.forEach((row, r) =>
    row.forEach((cell, c) => lines.push({ text: cell, x: 60 + c * 260, y: 60 + r * 44, size: 20 })),
  );
  return drawTextImage(lines, { width: 860, height: 60 + TABLE.length * 44 });
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

// The native engine when the machine has the `tesseract` command (CI installs it), and tesseract.js.
describe.each(['auto', 'wasm'] as const)('reading order and confidence (engine: %s)', (engine) => {
  const provider: ProviderInstance = createTesseractProvider({
    id: 'local-ocr',
    options: { type: 'tesseract', workers: 1, engine },
    dataDir: '/tmp',
    logger,
  });
  afterAll(() => provider.close());
  const ocr = async (document: Buffer, mimeType: OcrRequest['mimeType'] = 'image/png'): Promise<OcrPage> =>
    (
      await provider.capabilities.ocr!.ocr({
        model: 'svc-ocr-3-2512',
        document,
        mimeType,
        signal: new AbortController().signal,
      })
    ).pages[0];

  it('reads a two-column page column by column, left column first', async () => {
    const page = await ocr((await twoColumnPage()).image);
    expect(oneLine(page.text)).toBe(oneLine(['Nature Notes Weekly', ...LEFT, ...RIGHT].join(' ')));
    // Blocks follow the same order, and each line stays inside one column.
    const lines = page.blocks.flatMap((b) => b.lines);
    expect(lines.map((l) => l.text)).toEqual(['Nature Notes Weekly', ...LEFT, ...RIGHT]);
    for (const line of lines.slice(1, 1 + LEFT.length)) expect(line.bbox[2]).toBeLessThan(540);
  });

  it('reads a table row by row, as one table block whose lines are the rows', async () => {
    const page = await ocr((await tablePage()).image);
    expect(page.text.split('\n')).toEqual(TABLE.map((row) => row.join(' ')));
    expect(page.blocks.map((b) => b.kind)).toEqual(['table']);
  });

  it('reports a high page confidence for a clean page', async () => {
    const page = await ocr((await tablePage()).image);
    expect(page.confidence).toBeGreaterThan(0.8);
    expect(page.confidence).toBeLessThanOrEqual(1);
  });

  it('returns no invented words and a low confidence for a blank, grainy scan', async () => {
    const blank = await drawTextImage([], {
      width: 900,
      height: 600,
      paper: 235,
      noise: 14,
      jpegQuality: 30,
      seed: 12,
    });
    const page = await ocr(blank.image, 'image/jpeg');
    expect(pageWords(page).filter((w) => /[\p{L}\p{N}]{2,}/u.test(w.text))).toEqual([]);
    expect(page.text.replace(/\s/g, '').length).toBeLessThan(5);
    expect(page.confidence).toBeLessThan(0.5);
  });

  it('returns almost nothing, not garbage, for text too faint and noisy to read', async () => {
    const lines = [...LEFT, ...RIGHT].map((text, i) => ({ text, x: 40, y: 50 + i * 26, size: 13 }));
    const faint = await drawTextImage(lines, {
      width: 500,
      height: 380,
      ink: 165,
      paper: 185,
      noise: 40,
      jpegQuality: 10,
      seed: 21,
    });
    const page = await ocr(faint.image, 'image/jpeg');
    const truthWords = new Set(faint.text.toLowerCase().match(/[a-z]+/g));
    const invented = pageWords(page).filter((w) => !truthWords.has(w.text.toLowerCase().replace(/[^a-z]/g, '')));
    expect(invented.length).toBeLessThanOrEqual(3);
    expect(page.text.length).toBeLessThan(faint.text.length);
  });
});

describe('engine choice', () => {
  it('falls back to tesseract.js when the native command is absent (engine: auto)', async () => {
    const provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1, tesseract_command: '/nonexistent/tesseract' },
      dataDir: '/tmp',
      logger,
    });
    try {
      const drawn = await drawTextImage([{ text: 'Fallback engine works', x: 20, y: 50, size: 28 }], {
        width: 420,
        height: 80,
      });
      const result = await provider.capabilities.ocr!.ocr({
        model: 'm',
        document: drawn.image,
        mimeType: 'image/png',
        signal: new AbortController().signal,
      });
      expect(result.pages[0].text.trim()).toBe('Fallback engine works');
      expect(provider.status().state).toBe('ready');
    } finally {
      await provider.close();
    }
  });

  it('reports the native engine unavailable, with the reason, when it is required and absent', async () => {
    const provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1, engine: 'native', tesseract_command: '/nonexistent/tesseract' },
      dataDir: '/tmp',
      logger,
    });
    try {
      const drawn = await drawTextImage([{ text: 'No engine', x: 20, y: 50, size: 28 }], { width: 300, height: 80 });
      await expect(
        provider.capabilities.ocr!.ocr({
          model: 'm',
          document: drawn.image,
          mimeType: 'image/png',
          signal: new AbortController().signal,
        }),
      ).rejects.toMatchObject({ kind: 'unavailable', code: 'ocr_engine_unavailable' });
      expect(provider.status()).toMatchObject({
        state: 'unavailable',
        detail: expect.stringContaining('tesseract-ocr'),
      });
    } finally {
      await provider.close();
    }
  });

  it('rejects an unknown engine option', () => {
    expect(() =>
      createTesseractProvider({ id: 'x', options: { type: 'tesseract', engine: 'gpu' }, dataDir: '/tmp', logger }),
    ).toThrow(/engine must be/);
  });
});

const INVOICE_LINES = [
  'Acme Supplies INVOICE',
  'Invoice Number: INV-2024-0042',
  'Invoice Date: 2024-03-15',
  'Bill To: Globex Corporation',
  'Description Qty Unit Price Amount',
  'Widgets 10 12.50 125.00',
  'Gadgets 3 299.50 898.50',
  'Shipping 1 211.00 211.00',
  'Total Due: $1,234.50',
];

describe('an invoice in reading order (engine: auto)', () => {
  const provider: ProviderInstance = createTesseractProvider({
    id: 'local-ocr',
    options: { type: 'tesseract', workers: 1 },
    dataDir: '/tmp',
    logger,
  });
  afterAll(() => provider.close());

  it.each<[string, Degradation]>([
    ['as scanned', {}],
    ['tilted, noisy and compressed', { rotate: 1.5, noise: 25, jpegQuality: 30 }],
  ])('reads the letterhead row, the address lines, then the table row by row (%s)', async (_, degradation) => {
    const invoice = await makeInvoiceImage(degradation);
    const mimeType = degradation.jpegQuality ? 'image/jpeg' : 'image/png';
    const [page] = (
      await provider.capabilities.ocr!.ocr({
        model: 'm',
        document: invoice.image,
        mimeType,
        signal: new AbortController().signal,
      })
    ).pages;
    expect(page.text.split('\n').filter(Boolean)).toEqual(INVOICE_LINES);
    // Only the item rows are the table: the address lines above it and the total below are text.
    const table = page.blocks.filter((b) => b.kind === 'table');
    expect(table.map((b) => b.lines.map((l) => l.text))).toEqual([INVOICE_LINES.slice(4, 8)]);
  });
});

describe('PDF text layers in reading order', () => {
  it('reads an invoice text layer row by row, the letterhead row first and the table as one table block', async () => {
    const lines: TextLineSpec[] = [
      { text: 'Acme Supplies', x: 40, y: 50, size: 16 },
      { text: 'INVOICE', x: 430, y: 50, size: 16 },
      { text: 'Invoice Number: INV-2024-0042', x: 40, y: 90, size: 10 },
      { text: 'Invoice Date: 2024-03-15', x: 40, y: 105, size: 10 },
      { text: 'Bill To: Globex Corporation', x: 40, y: 120, size: 10 },
    ];
    const xs = [40, 260, 330, 450];
    const rows = INVOICE_LINES.slice(4, 8).map((row) =>
      row
        .replace('Unit Price', 'Unit_Price')
        .split(' ')
        .map((cell) => cell.replace('_', ' ')),
    );
    rows.forEach((row, r) => row.forEach((cell, c) => lines.push({ text: cell, x: xs[c], y: 160 + r * 22, size: 10 })));
    lines.push({ text: 'Total Due: $1,234.50', x: 330, y: 270, size: 11 });
    const made = await makeTextPdf([{ lines }]);
    const provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1 },
      dataDir: '/tmp',
      logger,
    });
    try {
      const [page] = (
        await provider.capabilities.ocr!.ocr({
          model: 'm',
          document: made.pdf,
          mimeType: 'application/pdf',
          signal: new AbortController().signal,
        })
      ).pages;
      expect(page.text.split('\n').filter(Boolean)).toEqual(INVOICE_LINES);
      expect(page.blocks.filter((b) => b.kind === 'table').map((b) => b.lines.length)).toEqual([4]);
    } finally {
      await provider.close();
    }
  });

  it('reads a two-column text layer column by column', async () => {
    const lines: TextLineSpec[] = [{ text: 'Nature Notes Weekly', x: 50, y: 60, size: 18 }];
    LEFT.forEach((text, i) => lines.push({ text, x: 50, y: 100 + i * 14, size: 10 }));
    RIGHT.forEach((text, i) => lines.push({ text, x: 310, y: 100 + i * 14, size: 10 }));
    const made = await makeTextPdf([{ lines }]);
    const provider = createTesseractProvider({
      id: 'local-ocr',
      options: { type: 'tesseract', workers: 1 },
      dataDir: '/tmp',
      logger,
    });
    try {
      const [page] = (
        await provider.capabilities.ocr!.ocr({
          model: 'm',
          document: made.pdf,
          mimeType: 'application/pdf',
          signal: new AbortController().signal,
        })
      ).pages;
      expect(page.source).toBe('text_layer');
      expect(page.confidence).toBe(1);
      expect(oneLine(page.text)).toBe(oneLine(['Nature Notes Weekly', ...LEFT, ...RIGHT].join(' ')));
    } finally {
      await provider.close();
    }
  });
});
