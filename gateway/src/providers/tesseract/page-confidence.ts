import type { OcrBlock } from '../contracts/ocr.js';

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
