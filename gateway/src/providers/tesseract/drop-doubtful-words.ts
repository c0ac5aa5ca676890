import { makeBlock, makeLine } from '../../media/pdf/box-geometry.js';
import type { OcrBlock } from '../contracts/ocr.js';
import { pageConfidence } from './page-confidence.js';

/** Below this page confidence almost everything on the page is a guess (noise read as letters). */
const DOUBTFUL_PAGE = 0.6;
/** On such a page, words below this confidence are dropped. */
const WORD_FLOOR = 0.45;

/**
 * Never invent text: on a page where the recogniser is unsure of nearly everything, keeps only the
 * words it is fairly sure of (and never lone punctuation); confident pages are left as they are (a low word there is usually a
 * real word with an odd glyph).
 */
export function dropDoubtfulWords(blocks: OcrBlock[]): OcrBlock[] {
  if (pageConfidence(blocks) >= DOUBTFUL_PAGE) return blocks;
  const kept: OcrBlock[] = [];
  for (const block of blocks) {
    const lines = block.lines
      .map((line) => line.words.filter((w) => w.confidence >= WORD_FLOOR && /[\p{L}\p{N}]/u.test(w.text)))
      .filter((words) => words.length > 0)
      .map((words) => makeLine(words));
    if (lines.length > 0) kept.push(makeBlock(lines, block.kind));
  }
  return kept;
}
