import type { GrayImage } from '../../media/image/decode-image.js';
import { makeBlock, upperMedian, unionBox } from '../../ocr-layout/box-geometry.js';
import type { BoxCoordinates, OcrBlock } from '../contracts/ocr.js';
import type { OcrEngine, PageLayout } from './ocr-engine.js';
import { otsuThreshold } from './preprocess/otsu-threshold.js';

/** The rows of `image` from `top` to `bottom` (a view, no copy). */
export function cropRows(image: GrayImage, top: number, bottom: number): GrayImage {
  return {
    width: image.width,
    height: bottom - top,
    data: image.data.subarray(top * image.width, bottom * image.width),
  };
}

/**
 * Pages from this many pixels up (a 200-DPI A4 page has 3.9 million) are worth two processes: below it,
 * starting a second Tesseract (loading its model) costs more than half the recognition saves.
 */
const SPLIT_FROM_PIXELS = 2_000_000;
/** The cut is looked for in this middle share of the page, so both halves take about as long. */
const CUT_WINDOW = [0.35, 0.65] as const;
/** A blank run at least this tall (px) separates two lines; thinner ones may be a gap inside a glyph row. */
const MIN_GAP = 3;

/**
 * The middle of the tallest run of ink-free rows in the middle of the page (of equal ones, the nearest
 * the middle), or undefined when there is none (a noisy page, a photo across the middle): a cut there splits no line of text.
 */
export function findBlankCut(image: GrayImage): { cut: number; gap: number } | undefined {
  const threshold = otsuThreshold(image.data);
  const { width, height, data } = image;
  let best: { cut: number; gap: number } | undefined;
  let runStart = -1;
  const from = Math.floor(height * CUT_WINDOW[0]);
  const to = Math.ceil(height * CUT_WINDOW[1]);
  for (let y = from; y <= to; y++) {
    let blank = y < to;
    for (let x = 0, i = y * width; blank && x < width; x++, i++) if (data[i] <= threshold) blank = false;
    if (blank && runStart < 0) runStart = y;
    else if (!blank && runStart >= 0) {
      const gap = y - runStart;
      const cut = runStart + (gap >> 1);
      const nearer = best !== undefined && Math.abs(cut - height / 2) < Math.abs(best.cut - height / 2);
      if (gap >= MIN_GAP && (!best || gap > best.gap || (gap === best.gap && nearer))) best = { cut, gap };
      runStart = -1;
    }
  }
  return best;
}

const moveDown = (box: BoxCoordinates, dy: number): BoxCoordinates => [box[0], box[1] + dy, box[2], box[3] + dy];

function horizontalOverlap(a: BoxCoordinates, b: BoxCoordinates): number {
  const inter = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const union = Math.max(a[2], b[2]) - Math.min(a[0], b[0]);
  return union > 0 ? Math.max(0, inter) / union : 0;
}

/** A block of the lower band that continues a block of the upper band at least this much (horizontal IoU) is the same column. */
const SAME_COLUMN = 0.7;

/**
 * Joins the two bands' blocks: a block ending at the cut and one starting there, over the same columns,
 * are one block (a column or paragraph the cut ran through), so reading order sees the page's own layout.
 */
export function stitchBands(upper: OcrBlock[], lower: OcrBlock[], cut: number, gap: number): OcrBlock[] {
  const lines = [...upper, ...lower].flatMap((b) => b.lines);
  const reach = gap / 2 + 2 * (upperMedian(lines.map((l) => l.bbox[3] - l.bbox[1])) || 10);
  const joined = new Set<OcrBlock>();
  const out = [...upper];
  for (const below of lower) {
    // The block of the same column that ends lowest: the one the cut ran through.
    const above = upper
      .filter((a) => !joined.has(a) && a.kind === below.kind && horizontalOverlap(a.bbox, below.bbox) >= SAME_COLUMN)
      .sort((a, b) => b.bbox[3] - a.bbox[3])[0];
    if (above && above.bbox[3] >= cut - reach && below.bbox[1] <= cut + reach) {
      joined.add(above);
      const merged = makeBlock([...above.lines, ...below.lines], above.kind);
      out[out.indexOf(above)] = { ...merged, bbox: unionBox([above.bbox, below.bbox]) };
    } else out.push(below);
  }
  return out;
}

/**
 * Workers idle right now with no page waiting for one: 0 under load. `otherPages` are the other pages
 * being read now: one between two of its readings (preprocessing, layout) needs a worker again in a
 * moment, so it counts as busy although it runs on none.
 */
export function spareWorkers(engine: OcrEngine, otherPages = 0): number {
  const queue = engine.queues()[0];
  return (queue?.waiting ?? 0) > 0 ? 0 : engine.workers - Math.max(queue?.running ?? 0, otherPages);
}

/**
 * Recognises a page with the engine's own layout analysis, using two workers when two are free and the
 * page is large: the page is cut at a blank run of rows near its middle, both halves are read at once,
 * and blocks the cut ran through are joined again. One page at a time then takes about half as long;
 * under load (no second free worker, or another page being read) the page is read whole, as before. `blankCut` finds the cut (see findBlankCut).
 */
export async function recognizeInBands(
  engine: OcrEngine,
  image: GrayImage,
  signal: AbortSignal,
  layout: PageLayout,
  blankCut: (image: GrayImage) => Promise<{ cut: number; gap: number } | undefined> = async (page) =>
    findBlankCut(page),
  languages?: readonly string[],
  otherPages = 0,
): Promise<OcrBlock[]> {
  if (layout !== 'auto' || image.width * image.height < SPLIT_FROM_PIXELS || spareWorkers(engine, otherPages) < 2) {
    return engine.recognize(image, signal, layout, languages);
  }
  const found = await blankCut(image);
  if (!found) return engine.recognize(image, signal, layout, languages);
  const [upper, lower] = await Promise.all([
    engine.recognize(cropRows(image, 0, found.cut), signal, layout, languages),
    engine.recognize(cropRows(image, found.cut, image.height), signal, layout, languages),
  ]);
  const shifted = lower.map((block) => ({
    ...block,
    bbox: moveDown(block.bbox, found.cut),
    lines: block.lines.map((line) => ({
      ...line,
      bbox: moveDown(line.bbox, found.cut),
      words: line.words.map((w) => ({ ...w, bbox: moveDown(w.bbox, found.cut) })),
    })),
  }));
  return stitchBands(upper, shifted, found.cut, found.gap);
}
