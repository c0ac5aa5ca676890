import type { Block, Bbox } from 'tesseract.js';
import { joinWords } from '../../ocr-layout/join-words.js';
import type { BoxCoordinates, OcrBlock, OcrLine, OcrWord } from '../contracts/ocr.js';

/**
 * Converts tesseract.js output (blocks → paragraphs → lines → words, confidences 0..100) to the contract's blocks → lines →
 * words, boxes in the recognised image's pixels. Each
 * Tesseract paragraph becomes a block; empty words and lines are dropped.
 */
export function toOcrBlocks(blocks: Block[] | null): OcrBlock[] {
  const box = (b: Bbox): BoxCoordinates => [b.x0, b.y0, b.x1, b.y1];
  const confidence = (value: number): number => Math.max(0, Math.min(1, value / 100));
  const out: OcrBlock[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      const lines: OcrLine[] = [];
      for (const line of paragraph.lines) {
        const words: OcrWord[] = line.words
          .filter((w) => w.text.trim().length > 0)
          .map((w) => ({ text: w.text.trim(), bbox: box(w.bbox), confidence: confidence(w.confidence) }));
        if (words.length === 0) continue;
        lines.push({
          text: joinWords(words.map((w) => w.text)),
          bbox: box(line.bbox),
          confidence: confidence(line.confidence),
          words,
        });
      }
      if (lines.length === 0) continue;
      out.push({
        text: lines.map((l) => l.text).join('\n'),
        bbox: box(paragraph.bbox),
        confidence: confidence(paragraph.confidence),
        lines,
      });
    }
  }
  return out;
}
