import type { OcrResult, OcrWord } from '../../providers/contracts/ocr.js';

const word = (w: OcrWord): Record<string, unknown> => ({ text: w.text, bbox: w.bbox, confidence: w.confidence });

/**
 * The page layout as plain data, for `structured_output: true` without a schema: pages → blocks →
 * lines → words, each with its text, `[x1, y1, x2, y2]` pixel box (top-left origin) and confidence.
 */
export function layoutAsStructuredData(result: OcrResult): Record<string, unknown> {
  return {
    pages: result.pages.map((page) => ({
      index: page.index,
      width: page.width,
      height: page.height,
      source: page.source,
      text: page.text,
      blocks: page.blocks.map((block) => ({
        ...word(block),
        lines: block.lines.map((line) => ({ ...word(line), words: line.words.map(word) })),
      })),
    })),
  };
}
