import { afterAll, describe, expect, it } from 'vitest';
import { decodeGray, type GrayImage } from '../../../src/media/image/decode-image.js';
import { createEngine } from '../../../src/providers/tesseract/create-engine.js';
import { preprocessPage } from '../../../src/providers/tesseract/preprocess/preprocess-page.js';
import { parseTesseractOptions } from '../../../src/providers/tesseract/tesseract-options.js';
import { drawTextImage, proseLines, type Degradation } from '../../support/draw-text.js';

// The native engine when the machine has the `tesseract` command (CI installs it), else tesseract.js.
const engine = createEngine({ ...parseTesseractOptions({ type: 'tesseract' }), workers: 1 });
afterAll(() => engine.close());

const bare = (word: string): string => word.replace(/[^\p{L}\p{N}]/gu, '').toLowerCase();

async function page(degradation: Degradation): Promise<{ gray: GrayImage; truth: Set<string> }> {
  const drawn = await drawTextImage(proseLines(20, 40, 40, 8), { width: 900, height: 360, seed: 3, ...degradation });
  return {
    gray: await decodeGray(drawn.image, { maxPixels: 40_000_000 }),
    truth: new Set(drawn.text.split(/\s+/).map(bare)),
  };
}

/** Recognised words that are not on the page, and page words that were found. */
async function read(image: GrayImage, truth: Set<string>): Promise<{ invented: number; found: number }> {
  const words = (await engine.recognize(image, new AbortController().signal, 'auto')).flatMap((b) =>
    b.lines.flatMap((l) => l.words.map((w) => bare(w.text))),
  );
  return {
    invented: words.filter((w) => w !== '' && !truth.has(w)).length,
    found: new Set(words.filter((w) => truth.has(w))).size,
  };
}

describe('noise cleanup before recognition', () => {
  it.each([
    ['salt and pepper alone (too sparse for the grain estimate)', { saltPepper: 0.05 }],
    ['grain with salt and pepper', { noise: 40, saltPepper: 0.02 }],
  ])('removes the specks of %s: fewer invented words, no page word lost', async (_, degradation) => {
    const { gray, truth } = await page(degradation);
    const prepared = await preprocessPage(gray, { maxPixels: 40_000_000 });
    expect(prepared.steps.join(' ')).toMatch(/despeckle/);
    const raw = await read(gray, truth);
    const cleaned = await read(prepared.image, truth);
    expect(raw.invented).toBeGreaterThan(0);
    expect(cleaned.invented).toBeLessThan(raw.invented);
    expect(cleaned.found).toBeGreaterThanOrEqual(raw.found);
  });

  it('leaves a clean page as it is, pixel for pixel', async () => {
    const { gray } = await page({});
    const prepared = await preprocessPage(gray, { maxPixels: 40_000_000 });
    expect(prepared.steps).toEqual([]);
    expect(Buffer.compare(Buffer.from(prepared.image.data), Buffer.from(gray.data))).toBe(0);
  });
});
