import { afterAll, describe, expect, it } from 'vitest';
import { decodeGray } from '../../../src/media/image/decode-image.js';
import { createEngine } from '../../../src/providers/tesseract/create-engine.js';
import type { OcrEngine } from '../../../src/providers/tesseract/ocr-engine.js';
import { lineProfile } from '../../../src/providers/tesseract/preprocess/line-profile.js';
import { recognizeGray } from '../../../src/providers/tesseract/recognize-gray.js';
import { parseTesseractOptions } from '../../../src/providers/tesseract/tesseract-options.js';
import { drawTextImage, makeDegradedPage } from '../../support/draw-text.js';
import { observedEngine } from '../../support/observed-engine.js';

// The native engine when the machine has the `tesseract` command (CI installs it), else tesseract.js.
const options = { ...parseTesseractOptions({ type: 'tesseract' }), workers: 1 };
const inner = createEngine(options);
afterAll(() => inner.close());

/** The engine, recording the size of each page it is asked to read. */
function recording(): { engine: OcrEngine; sizes: string[] } {
  const sizes: string[] = [];
  const engine = observedEngine(inner, (image, signal, layout) => {
    sizes.push(`${image.width}x${image.height}`);
    return inner.recognize(image, signal, layout);
  });
  return { engine, sizes };
}

const clearSkew = (image: Parameters<typeof lineProfile>[0]) => lineProfile(image).clearSkew;
const gray = async (image: Promise<{ image: Buffer }>) => decodeGray((await image).image, { maxPixels: 40_000_000 });

describe('a page whose pixels show a clear skew', () => {
  it('measures the skew of a rotated page and none on a level page or on grain', async () => {
    expect(clearSkew(await gray(makeDegradedPage('rotated_2deg')))).toBeCloseTo(2, 0);
    expect(clearSkew(await gray(makeDegradedPage('rotated_4deg')))).toBeCloseTo(-4, 0);
    expect(clearSkew(await gray(makeDegradedPage('clean')))).toBeUndefined();
    expect(
      clearSkew(
        await gray(drawTextImage([], { width: 900, height: 600, paper: 235, noise: 14, jpegQuality: 30, seed: 12 })),
      ),
    ).toBeUndefined();
  });

  it('is straightened first and read once, straightened', async () => {
    const image = await gray(makeDegradedPage('rotated_2deg'));
    const { engine, sizes } = recording();
    const page = await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
    // One reading, of the rotated canvas (larger than the page), not of the page as it came.
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).not.toBe(`${image.width}x${image.height}`);
    expect(page.text).toMatch(/quick brown fox/i);
    // Boxes are mapped back onto the page as it came.
    for (const block of page.blocks) expect(block.bbox[2]).toBeLessThanOrEqual(image.width + 1);
  });

  it('a level page is still read as it comes', async () => {
    const image = await gray(makeDegradedPage('clean'));
    const { engine, sizes } = recording();
    await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
    expect(sizes[0]).toBe(`${image.width}x${image.height}`);
  });
});
