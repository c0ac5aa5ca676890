import { labelComponents } from './label-components.js';

export interface ComponentStats {
  /** Number of 8-connected ink components. */
  count: number;
  /** Median height of components that look like glyphs, or 0 when there are none. */
  medianGlyphHeight: number;
  /** Fraction of components of at most 2 pixels: specks from noise. */
  speckRatio: number;
}

/** Connected-component statistics of a binary image (1 = ink); typed arrays throughout. */
export function componentStats(binary: Uint8Array, width: number, height: number): ComponentStats {
  const { labels, count: next } = labelComponents(binary, width, height);
  const minY = new Int32Array(next).fill(-1);
  const maxY = new Int32Array(next);
  const minX = new Int32Array(next);
  const maxX = new Int32Array(next);
  const area = new Int32Array(next);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const root = labels[y * width + x];
      if (!root) continue;
      if (minY[root] < 0) {
        minY[root] = maxY[root] = y;
        minX[root] = maxX[root] = x;
      } else {
        if (y > maxY[root]) maxY[root] = y;
        if (x < minX[root]) minX[root] = x;
        if (x > maxX[root]) maxX[root] = x;
      }
      area[root]++;
    }
  }
  const heights: number[] = [];
  let specks = 0;
  let count = 0;
  for (let root = 1; root < next; root++) {
    if (!area[root]) continue;
    count++;
    if (area[root] <= 2) specks++;
    const h = maxY[root] - minY[root] + 1;
    const w = maxX[root] - minX[root] + 1;
    // Glyph-like: not a speck, not a rule or a picture.
    if (area[root] >= 4 && h >= 3 && w <= 4 * h && h <= height / 4) heights.push(h);
  }
  heights.sort((a, b) => a - b);
  return {
    count,
    medianGlyphHeight: heights.length ? heights[Math.floor(heights.length / 2)] : 0,
    speckRatio: count ? specks / count : 0,
  };
}
