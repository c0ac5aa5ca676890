import { afterAll, describe, expect, it } from 'vitest';
import { createTesseractProvider } from '../../../src/providers/tesseract/create-tesseract-provider.js';
import {
  findBlankCut,
  recognizeInBands,
  spareWorkers,
  stitchBands,
} from '../../../src/providers/tesseract/recognize-in-bands.js';
import type { OcrEngine } from '../../../src/providers/tesseract/ocr-engine.js';
import type { GrayImage } from '../../../src/media/image/decode-image.js';
import type { BoxCoordinates, OcrBlock } from '../../../src/providers/contracts/ocr.js';
import { boxIou, drawTextImage, type TextLineSpec } from '../../support/draw-text.js';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const SENTENCES = [
  'Rivers carry water from the hills to',
  'the sea, and along the way they shape',
  'valleys, feed farms and power mills.',
  'Engineers measure their flow each',
  'spring, when melting snow swells them',
  'and the old bridges are inspected.',
  'Mountains rise where plates collide,',
  'pushing rock upward over millions of',
  'years until snow caps the highest',
  'peaks and glaciers carve the slopes.',
];

/** A 200-DPI A4 page: a title over two columns of 36 lines of prose each, on shared baselines. */
function twoColumnA4(): { lines: TextLineSpec[]; left: string[]; right: string[] } {
  const left = Array.from({ length: 36 }, (_, i) => SENTENCES[i % SENTENCES.length]);
  const right = Array.from({ length: 36 }, (_, i) => SENTENCES[(i + 5) % SENTENCES.length]);
  const lines: TextLineSpec[] = [{ text: 'Field Notes on Rivers and Mountains', x: 120, y: 150, size: 44, bold: true }];
  left.forEach((text, i) => lines.push({ text, x: 120, y: 300 + i * 54, size: 28 }));
  right.forEach((text, i) => lines.push({ text, x: 900, y: 300 + i * 54, size: 28 }));
  return { lines, left, right };
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

describe('a large page read by two workers at once', () => {
  const provider = createTesseractProvider({
    id: 'local-ocr',
    options: { type: 'tesseract', workers: 2, engine: 'auto' },
    dataDir: '/tmp',
    logger,
  });
  afterAll(() => provider.close());

  it('keeps reading order across the cut (left column, then right) and word boxes where they were drawn', async () => {
    const { lines, left, right } = twoColumnA4();
    const drawn = await drawTextImage(lines, { width: 1654, height: 2339 });
    const result = await provider.capabilities.ocr!.ocr({
      model: 'svc-ocr-3-2512',
      document: drawn.image,
      mimeType: 'image/png',
      signal: new AbortController().signal,
    });
    const page = result.pages[0];
    console.log(
      page.blocks.map((b) => `${b.bbox.join(',')} ${b.kind ?? ''} ${b.lines.length}: ${b.lines[0].text}`).join('\n'),
    );
    expect(oneLine(page.text)).toBe(oneLine(['Field Notes on Rivers and Mountains', ...left, ...right].join(' ')));
    const words = page.blocks.flatMap((b) => b.lines.flatMap((l) => l.words));
    const lowHalf = drawn.words.filter((w) => w.bbox[1] > 1300);
    expect(lowHalf.length).toBeGreaterThan(200);
    const placed = lowHalf.filter((d) => words.some((w) => w.text === d.text && boxIou(w.bbox, d.bbox) > 0.5));
    expect(placed.length / lowHalf.length).toBeGreaterThan(0.95);
  });
});

/** A block with a 30 px line at its top and one at its bottom. */
function block(bbox: BoxCoordinates, text: string): OcrBlock {
  const line = (top: number) => {
    const box: BoxCoordinates = [bbox[0], top, bbox[2], top + 30];
    return { text, bbox: box, confidence: 0.9, words: [{ text, bbox: box, confidence: 0.9 }] };
  };
  return { text, bbox, confidence: 0.9, lines: [line(bbox[1]), line(bbox[3] - 30)] };
}
const texts = (blocks: OcrBlock[]): string[] => blocks.map((b) => [...new Set(b.lines.map((l) => l.text))].join('+'));

describe('stitching the two halves of a page', () => {
  it('joins a column the cut ran through and keeps a full-width heading and the other column apart', () => {
    const upper = [
      block([100, 50, 1500, 100], 'Heading'),
      block([100, 200, 760, 990], 'left-top'),
      block([880, 200, 1540, 990], 'right-top'),
    ];
    const lower = [block([100, 1010, 760, 2000], 'left-bottom'), block([880, 1010, 1520, 2000], 'right-bottom')];
    const stitched = stitchBands(upper, lower, 1000, 12);
    expect(texts(stitched)).toEqual(['Heading', 'left-top+left-bottom', 'right-top+right-bottom']);
    expect(stitched[1].bbox).toEqual([100, 200, 760, 2000]);
  });

  it('leaves a block that starts far below the cut on its own', () => {
    const stitched = stitchBands(
      [block([100, 200, 760, 900], 'above')],
      [block([100, 1600, 760, 2000], 'far below')],
      1000,
      12,
    );
    expect(texts(stitched)).toEqual(['above', 'far below']);
  });

  it('finds no cut on a page with ink in every middle row, and a cut in a blank run otherwise', () => {
    const width = 50;
    const height = 100;
    const striped = { width, height, data: new Uint8Array(width * height).map((_, i) => (i % width === 7 ? 0 : 255)) };
    expect(findBlankCut(striped)).toBeUndefined();
    const gapped = {
      width,
      height,
      data: new Uint8Array(width * height).map((_, i) =>
        Math.floor(i / width) >= 50 && Math.floor(i / width) < 56 ? 255 : i % 3 ? 255 : 0,
      ),
    };
    expect(findBlankCut(gapped)).toEqual({ cut: 53, gap: 6 });
  });
});

describe('when a large page is cut in two', () => {
  /** An engine of two idle workers that records the heights of the images it is asked to read. */
  function idleEngine() {
    const heights: number[] = [];
    const engine = {
      kind: 'native',
      workers: 2,
      queues: () => [{ name: 'ocr', waiting: 0, running: 0 }],
      recognize: async (image: GrayImage) => {
        heights.push(image.height);
        return [];
      },
    } as unknown as OcrEngine;
    return { engine, heights };
  }
  const page: GrayImage = { width: 1654, height: 2339, data: new Uint8Array(1654 * 2339).fill(255) };
  const cut = async () => ({ cut: 1100, gap: 40 });

  it('uses both idle workers when it is the only page being read', async () => {
    const { engine, heights } = idleEngine();
    expect(spareWorkers(engine)).toBe(2);
    await recognizeInBands(engine, page, new AbortController().signal, 'auto', cut);
    expect(heights.sort()).toEqual([1100, 1239]);
  });

  it('reads it whole while another page is being read, which needs a worker again soon', async () => {
    const { engine, heights } = idleEngine();
    expect(spareWorkers(engine, 1)).toBe(1);
    await recognizeInBands(engine, page, new AbortController().signal, 'auto', cut, undefined, 1);
    expect(heights).toEqual([2339]);
  });
});
