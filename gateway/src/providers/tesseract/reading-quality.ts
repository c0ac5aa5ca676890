import { makeBlock, makeLine, upperMedian } from '../../ocr-layout/box-geometry.js';
import type { OcrBlock } from '../contracts/ocr.js';

// What a reading's words say about it: how sure the engine was, which words are guesses, how the lines slope.

/** Mean word confidence weighted by word length; 0 when there are no words. */
export function pageConfidence(blocks: OcrBlock[]): number {
  let weighted = 0;
  let chars = 0;
  for (const block of blocks) {
    for (const line of block.lines) {
      for (const word of line.words) {
        weighted += word.confidence * word.text.length;
        chars += word.text.length;
      }
    }
  }
  return chars > 0 ? weighted / chars : 0;
}

/** Below this page confidence almost everything on the page is a guess (noise read as letters). */
const DOUBTFUL_PAGE = 0.6;
/** On such a page, words below this confidence are dropped. */
const WORD_FLOOR = 0.45;
/**
 * Below this page confidence nothing on the page is legible (noise read as letters, where even the
 * specks the recogniser likes best score 0.5 to 0.8): only words read with real confidence are kept.
 */
const ILLEGIBLE_PAGE = 0.3;
const ILLEGIBLE_WORD_FLOOR = 0.85;

/**
 * Never invent text: on a page where the recogniser is unsure of nearly everything, keeps only the
 * words it is fairly sure of (and never lone punctuation); confident pages are left as they are (a low word there is usually a
 * real word with an odd glyph).
 */
export function dropDoubtfulWords(blocks: OcrBlock[]): OcrBlock[] {
  const confidence = pageConfidence(blocks);
  if (confidence >= DOUBTFUL_PAGE) return blocks;
  const floor = confidence < ILLEGIBLE_PAGE ? ILLEGIBLE_WORD_FLOOR : WORD_FLOOR;
  const kept: OcrBlock[] = [];
  for (const block of blocks) {
    const lines = block.lines
      .map((line) => line.words.filter((w) => w.confidence >= floor && /[\p{L}\p{N}]/u.test(w.text)))
      .filter((words) => words.length > 0)
      .map((words) => makeLine(words));
    if (lines.length > 0) kept.push(makeBlock(lines, block.kind));
  }
  return kept;
}

/**
 * The page's skew in degrees as Tesseract's own reading shows it: along a skewed line, word boxes climb
 * or fall. The slope of word bottoms over x, fitted per line of four or more words; the median over
 * lines, or undefined when too few lines are long enough (tables, forms, receipts).
 */
export function lineSkew(blocks: OcrBlock[]): number | undefined {
  const angles: number[] = [];
  for (const line of blocks.flatMap((b) => b.lines)) {
    if (line.words.length < 4) continue;
    const xs = line.words.map((w) => (w.bbox[0] + w.bbox[2]) / 2);
    const ys = line.words.map((w) => w.bbox[3]);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    let sxy = 0;
    let sxx = 0;
    xs.forEach((x, i) => {
      sxy += (x - mx) * (ys[i] - my);
      sxx += (x - mx) ** 2;
    });
    if (sxx > 0) angles.push((Math.atan(sxy / sxx) * 180) / Math.PI);
  }
  return angles.length >= 3 ? upperMedian(angles) : undefined;
}
