import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGray, type GrayImage } from '../../../src/media/image/decode-image.js';
import { createEngine } from '../../../src/providers/tesseract/create-engine.js';
import type { OcrEngine, PageLayout } from '../../../src/providers/tesseract/ocr-engine.js';
import { recognizeGray } from '../../../src/providers/tesseract/recognize-gray.js';
import { parseTesseractOptions } from '../../../src/providers/tesseract/tesseract-options.js';
import { drawTextImage, proseLines, textWidth, type TextLineSpec } from '../../support/draw-text.js';
import { observedEngine } from '../../support/observed-engine.js';

// Speculation runs on the native engine only (its process can be killed): skipped without the command.
const options = { ...parseTesseractOptions({ type: 'tesseract', engine: 'native' }), workers: 2 };
const inner = createEngine(options);
let native = false;
beforeAll(async () => {
  native = await inner.warm().then(
    () => true,
    () => false,
  );
});
afterAll(() => inner.close());

/** The engine, recording each reading it starts and whether it finished or was cancelled (`onStart` is called as each starts). */
function recording(onStart?: () => void): {
  engine: OcrEngine;
  log: { layout: PageLayout; outcome: Promise<'done' | 'cancelled'> }[];
} {
  const log: { layout: PageLayout; outcome: Promise<'done' | 'cancelled'> }[] = [];
  const engine = observedEngine(inner, (image, signal, layout = 'auto') => {
    const reading = inner.recognize(image, signal, layout);
    log.push({
      layout,
      outcome: reading.then(
        () => 'done' as const,
        () => 'cancelled' as const,
      ),
    });
    onStart?.();
    return reading;
  });
  return { engine, log };
}

/** Items on the left, prices flush right: the price column is what the layout reading misreads. */
async function receipt(): Promise<GrayImage> {
  const items = [
    'Whole milk 1L',
    'Sourdough loaf',
    'Free range eggs',
    'Cheddar cheese',
    'Green apples',
    'Coffee beans',
    'Olive oil',
    'Tomato passata',
    'Brown rice 1kg',
  ];
  const lines: TextLineSpec[] = [{ text: 'GREEN VALLEY MARKET', x: 130, y: 60, size: 24, bold: true }];
  items.forEach((item, i) => {
    const price = (0.99 + i * 0.37).toFixed(2);
    lines.push(
      { text: item, x: 40, y: 200 + i * 32, size: 20 },
      { text: price, x: 520 - textWidth(price, 20, 'mono'), y: 200 + i * 32, size: 20 },
    );
  });
  lines.push({ text: 'Thank you for shopping with us', x: 95, y: 563, size: 20 });
  return decodeGray((await drawTextImage(lines, { width: 560, height: 628, font: 'mono' })).image, {
    maxPixels: 40_000_000,
  });
}

const run = (engine: OcrEngine, image: GrayImage, idle: boolean) =>
  recognizeGray(engine, image, 0, { ...options, signal: new AbortController().signal, idleCore: () => idle });

describe('a small page read as one block on a spare core', () => {
  it('reads a receipt as one block while its layout reading runs, and keeps the block reading', async ({ skip }) => {
    if (!native) skip();
    const { engine, log } = recording();
    const page = await run(engine, await receipt(), true);
    expect(log.map((l) => l.layout).sort()).toEqual(['auto', 'block']);
    expect(page.text).toMatch(/Whole milk 1L\s+0\.99/);
    expect(page.text).toMatch(/Brown rice 1kg\s+3\.95/);
  });

  it('cancels the block reading once the layout reading is confident', async ({ skip }) => {
    if (!native) skip();
    const { engine, log } = recording();
    const image = await decodeGray(
      (await drawTextImage(proseLines(20, 40, 40, 10), { width: 900, height: 480 })).image,
      { maxPixels: 40_000_000 },
    );
    const page = await run(engine, image, true);
    expect(page.confidence).toBeGreaterThan(0.85);
    expect(log.map((l) => l.layout)).toEqual(['auto', 'block']);
    // Killed, unless it happened to finish first.
    expect(['cancelled', 'done']).toContain(await log[1].outcome);
  });

  it('starts nothing extra when the machine has no core to spare', async ({ skip }) => {
    if (!native) skip();
    const { engine, log } = recording();
    await run(engine, await receipt(), false);
    expect(log.map((l) => l.layout)).toEqual(['auto', 'block']);
    expect(await Promise.all(log.map((l) => l.outcome))).toEqual(['done', 'done']);
  });

  it('gives its worker up as soon as another page waits for one, and the receipt is still read as a block', async ({
    skip,
  }) => {
    if (!native) skip();
    const other = await decodeGray(
      (await drawTextImage(proseLines(8, 40, 40, 10), { width: 700, height: 300 })).image,
      { maxPixels: 40_000_000 },
    );
    let second: ReturnType<OcrEngine['recognize']> | undefined;
    // Both workers busy (layout and block reading): a second page arrives and waits, at once rather than
    // after a poll, so the block reading cannot finish first on a busy machine.
    const { engine, log } = recording(() => {
      if (log.length === 2) second = engine.recognize(other, new AbortController().signal, 'auto');
    });
    const first = run(engine, await receipt(), true);
    await expect.poll(() => log.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(await log[1].outcome).toBe('cancelled');
    expect((await second!).length).toBeGreaterThan(0);
    const page = await first;
    // The block reading the receipt needed is made after all, once a worker is free.
    expect(log.slice(3).map((l) => l.layout)).toContain('block');
    expect(page.text).toMatch(/Brown rice 1kg\s+3\.95/);
  });
});
