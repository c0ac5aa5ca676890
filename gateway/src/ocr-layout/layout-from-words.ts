import type { BoxCoordinates, OcrBlock, OcrLine, OcrWord } from './ocr-page.js';
import { makeBlock, makeLine } from './box-geometry.js';
import { orderBlocks } from './reading-order.js';

/**
 * Groups positioned words (a PDF text layer) into lines and blocks in reading order: words whose
 * vertical centres are within half a word height share a line, unless a gap wider than two heights
 * separates them (columns, table cells); lines that follow closely and overlap horizontally share a
 * block; blocks are then put in reading order (see orderBlocks).
 */
export function layoutFromWords(words: OcrWord[], page: { width: number; height: number }): OcrBlock[] {
  const height = (b: BoxCoordinates): number => b[3] - b[1];
  const centre = (b: BoxCoordinates): number => (b[1] + b[3]) / 2;
  const sorted = [...words].sort((a, b) => centre(a.bbox) - centre(b.bbox) || a.bbox[0] - b.bbox[0]);

  const rows: OcrWord[][] = [];
  for (const word of sorted) {
    const row = rows.find((r) => {
      const last = r[r.length - 1];
      return Math.abs(centre(last.bbox) - centre(word.bbox)) < Math.max(height(last.bbox), height(word.bbox)) / 2;
    });
    if (row) row.push(word);
    else rows.push([word]);
  }
  const lines: OcrLine[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.bbox[0] - b.bbox[0]);
    let current: OcrWord[] = [];
    for (const word of row) {
      const last = current[current.length - 1];
      if (last && word.bbox[0] - last.bbox[2] > 2 * Math.max(height(last.bbox), height(word.bbox))) {
        lines.push(makeLine(current));
        current = [];
      }
      current.push(word);
    }
    if (current.length) lines.push(makeLine(current));
  }
  lines.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);

  const blocks: OcrLine[][] = [];
  for (const line of lines) {
    const block = blocks.find((candidate) => {
      const last = candidate[candidate.length - 1];
      const gap = line.bbox[1] - last.bbox[3];
      const overlaps = line.bbox[0] < last.bbox[2] && line.bbox[2] > last.bbox[0];
      return overlaps && gap < 1.2 * height(last.bbox);
    });
    if (block) block.push(line);
    else blocks.push([line]);
  }
  return orderBlocks(
    blocks.map((b) => makeBlock(b)),
    page,
  );
}
