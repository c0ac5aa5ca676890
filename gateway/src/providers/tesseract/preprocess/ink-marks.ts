import type { BoxCoordinates } from '../../contracts/ocr.js';
import { labelComponents } from './label-components.js';

/** One 8-connected ink component: its box and how many pixels it has. */
export interface InkMark {
  bbox: BoxCoordinates;
  area: number;
}

/**
 * The 8-connected ink components of a binary image (1 = ink) with at least `minArea` pixels.
 * Returns the marks, each pixel's component label and, per label, its mark's number (1-based; 0 for
 * marks left out).
 */
export function inkMarks(
  binary: Uint8Array,
  width: number,
  height: number,
  minArea: number,
): { marks: InkMark[]; labels: Int32Array; ids: Int32Array } {
  const { labels, count: next } = labelComponents(binary, width, height);
  const minX = new Int32Array(next).fill(width);
  const minY = new Int32Array(next).fill(height);
  const maxX = new Int32Array(next).fill(-1);
  const maxY = new Int32Array(next).fill(-1);
  const area = new Int32Array(next);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const root = labels[i];
      if (!root) continue;
      if (x < minX[root]) minX[root] = x;
      if (x > maxX[root]) maxX[root] = x;
      if (y < minY[root]) minY[root] = y;
      if (y > maxY[root]) maxY[root] = y;
      area[root]++;
    }
  }
  const marks: InkMark[] = [];
  const ids = new Int32Array(next);
  for (let root = 1; root < next; root++) {
    if (area[root] < minArea) continue;
    ids[root] = marks.length + 1;
    marks.push({ bbox: [minX[root], minY[root], maxX[root] + 1, maxY[root] + 1], area: area[root] });
  }
  return { marks, labels, ids };
}
