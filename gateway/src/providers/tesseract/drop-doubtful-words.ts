import { makeBlock, makeLine } from '../../ocr-layout/box-geometry.js';
import type { OcrBlock } from '../contracts/ocr.js';
import { pageConfidence } from './page-confidence.js';

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
