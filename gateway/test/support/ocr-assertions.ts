import type { OcrPage, OcrWord } from '../../src/providers/contracts/ocr.js';
import { boxIou, type DrawnWord } from './draw-text.js';

export function pageWords(page: OcrPage): OcrWord[] {
  return page.blocks.flatMap((b) => b.lines.flatMap((l) => l.words));
}

/** Strips punctuation that OCR attaches to words, so "river." matches "river". */
const bare = (text: string): string => text.replace(/[^\p{L}\p{N}@$-]/gu, '').toLowerCase();

/**
 * For each drawn word, the recognised word with the same text that overlaps it most, and their IoU
 * (0 when the word was not recognised).
 */
export function matchWords(drawn: DrawnWord[], recognised: OcrWord[]): { text: string; iou: number }[] {
  return drawn.map((word) => {
    const candidates = recognised.filter((r) => bare(r.text) === bare(word.text));
    const iou = Math.max(0, ...candidates.map((r) => boxIou(word.bbox, r.bbox)));
    return { text: word.text, iou };
  });
}

/** Fraction of drawn words recognised with the right text and a box overlapping the drawn one (IoU > 0.5). */
export function wordRecall(drawn: DrawnWord[], recognised: OcrWord[]): number {
  const matches = matchWords(drawn, recognised);
  return matches.filter((m) => m.iou > 0.5).length / Math.max(1, matches.length);
}
