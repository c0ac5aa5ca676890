import { afterAll, describe, expect, it } from 'vitest';
import { decodeGray } from '../../../src/media/image/decode-image.js';
import { createEngine } from '../../../src/providers/tesseract/create-engine.js';
import type { OcrEngine } from '../../../src/providers/tesseract/ocr-engine.js';
import { lineProfile } from '../../../src/providers/tesseract/preprocess/line-profile.js';
import { preprocessPage } from '../../../src/providers/tesseract/preprocess/preprocess-page.js';
import { recognizeGray } from '../../../src/providers/tesseract/recognize-gray.js';
import { parseTesseractOptions } from '../../../src/providers/tesseract/tesseract-options.js';
import { characterErrorRate } from '../../../../bench/ocr/error-rates.js';
import { drawTextImage, makeDegradedPage, makeVariantPage, proseLines } from '../../support/draw-text.js';
import { observedEngine } from '../../support/observed-engine.js';

// The native engine when the machine has the `tesseract` command (CI installs it), else tesseract.js.
const options = { ...parseTesseractOptions({ type: 'tesseract' }), workers: 1 };
const inner = createEngine(options);
afterAll(() => inner.close());

/** The engine, counting the pages it is asked to read. */
function counting(): { engine: OcrEngine; calls: () => number } {
  let calls = 0;
  const engine = observedEngine(inner, (image, signal, layout) => {
    calls++;
    return inner.recognize(image, signal, layout);
  });
  return { engine, calls: () => calls };
}

const gray = async (image: Promise<{ image: Buffer }>) => decodeGray((await image).image, { maxPixels: 40_000_000 });
const grain = () =>
  gray(drawTextImage([], { width: 900, height: 600, paper: 235, noise: 14, jpegQuality: 30, seed: 12 }));
const faint = () =>
  gray(
    drawTextImage(proseLines(18, 40, 40, 20), {
      width: 900,
      height: 700,
      ink: 165,
      paper: 185,
      noise: 40,
      jpegQuality: 10,
      seed: 21,
    }),
  );

describe('a page with nothing legible on it', () => {
  it('stops preprocessing when no word was found and the cleaned marks are grain-sized (no upscaling of specks)', async () => {
    for (const image of [await grain(), await faint()]) {
      const prepared = await preprocessPage(image, { maxPixels: 40_000_000, textFound: false });
      expect(prepared.illegible).toBe(true);
      expect(prepared.steps.join(' ')).not.toMatch(/upscale|deskew/);
      expect(prepared.image.width).toBe(image.width);
    }
  });

  it('is read at most once and returns no text', async () => {
    for (const image of [await grain(), await faint()]) {
      const { engine, calls } = counting();
      const page = await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
      expect(page.text).toBe('');
      expect(calls()).toBeLessThanOrEqual(1);
    }
  });

  it('still reads, cleaned, a grainy low-contrast page that read as it comes yields no word', async () => {
    const image = await gray(makeDegradedPage('low_contrast'));
    const prepared = await preprocessPage(image, { maxPixels: 40_000_000, textFound: false });
    expect(prepared.illegible).toBeUndefined();
    const { engine, calls } = counting();
    const page = await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
    // Its grain measures noisy and it needs nothing but cleaning: read cleaned first, and once when that reading is confident.
    expect(calls()).toBe((page.confidence ?? 0) >= 0.85 ? 1 : 2);
    expect(page.text.split(/\s+/).length).toBeGreaterThan(30);
  });
});

describe('a page whose pixels show no text lines', () => {
  it('is not read at all when no glyph-shaped marks in a row stand out of its grain', async () => {
    for (const image of [await grain(), await faint()]) {
      expect(lineProfile(image).lines).toBe(false);
      const { engine, calls } = counting();
      const page = await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
      expect(calls()).toBe(0);
      expect(page).toMatchObject({ text: '', blocks: [], confidence: 0 });
    }
  });

  it('is read as usual when its lines are there (small text on a clean page, faint text cleaned)', async () => {
    expect(lineProfile(await gray(makeDegradedPage('small_font'))).lines).toBe(true);
    const { engine, calls } = counting();
    const page = await recognizeGray(engine, await gray(makeDegradedPage('low_contrast')), 0, {
      ...options,
      signal: new AbortController().signal,
    });
    expect(calls()).toBeGreaterThanOrEqual(1);
    expect(page.text).toMatch(/quick brown fox/i);
  });
});

describe('a grainy page with only a few words on it', () => {
  // Heavy grain (JPEG-smoothed, Gaussian, low contrast) around a stamp, a note, a signature line: the
  // raw pixels show no text lines and the cleaned marks are grain-sized, yet a person reads every word.
  const pages: { words: string[]; draw: () => ReturnType<typeof drawTextImage> }[] = [
    {
      words: ['Invoice', 'paid', 'in', 'full'],
      draw: () =>
        drawTextImage([{ text: 'Invoice paid in full', x: 80, y: 250, size: 20 }], {
          width: 900,
          height: 600,
          paper: 235,
          noise: 14,
          jpegQuality: 30,
          seed: 3,
        }),
    },
    {
      words: ['Return', 'to', 'sender'],
      draw: () =>
        drawTextImage([{ text: 'Return to sender', x: 300, y: 100, size: 16 }], {
          width: 900,
          height: 600,
          paper: 235,
          noise: 20,
          jpegQuality: 30,
          seed: 3,
        }),
    },
    {
      words: ['Approved', 'Chief', 'Engineer'],
      draw: () =>
        drawTextImage(
          [
            { text: 'Approved', x: 100, y: 80, size: 24 },
            { text: 'Chief Engineer', x: 500, y: 480, size: 24 },
          ],
          { width: 900, height: 600, paper: 230, noise: 30, seed: 12 },
        ),
    },
    {
      words: ['CONFIDENTIAL'],
      draw: () =>
        drawTextImage([{ text: 'CONFIDENTIAL', x: 300, y: 280, size: 28 }], {
          width: 900,
          height: 600,
          paper: 225,
          noise: 40,
          jpegQuality: 20,
          seed: 12,
        }),
    },
  ];

  it('still reads its words, once, and nothing else', async () => {
    for (const { words, draw } of pages) {
      const image = await gray(draw());
      expect(lineProfile(image).lines).toBe(false);
      const { engine, calls } = counting();
      const page = await recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal });
      expect(page.text.split(/\s+/).filter(Boolean), words.join(' ')).toEqual(words);
      expect(page.confidence).toBeGreaterThan(0.8);
      expect(calls()).toBe(1);
    }
  });
});

describe('a page whose grain measures noisy', () => {
  it('is read denoised first, and once when that reading is confident', async () => {
    for (const [name, drawn] of [
      ['noise', await makeDegradedPage('noise')],
      ['noise_b', await makeVariantPage('noise_b')],
    ] as const) {
      const { engine, calls } = counting();
      const page = await recognizeGray(engine, await gray(Promise.resolve(drawn)), 0, {
        ...options,
        signal: new AbortController().signal,
      });
      expect(calls(), name).toBe((page.confidence ?? 0) >= 0.85 ? 1 : 2);
      expect(characterErrorRate(drawn.text, page.text), name).toBeLessThan(0.05);
    }
  });
});
