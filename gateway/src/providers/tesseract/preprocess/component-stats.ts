export interface ComponentStats {
  /** Number of 8-connected ink components. */
  count: number;
  /** Median height of components that look like glyphs, or 0 when there are none. */
  medianGlyphHeight: number;
  /** Fraction of components of at most 2 pixels: specks from noise. */
  speckRatio: number;
}

/**
 * Connected-component statistics of a binary image (1 = ink), by two-pass labelling with union-find.
 * Typed arrays throughout: a grainy page has hundreds of thousands of components.
 */
export function componentStats(binary: Uint8Array, width: number, height: number): ComponentStats {
  const labels = new Int32Array(binary.length);
  let parent = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!binary[i]) continue;
      // The labelled neighbours: left, up, up-left, up-right.
      const left = x > 0 ? labels[i - 1] : 0;
      const up = y > 0 ? labels[i - width] : 0;
      const upLeft = y > 0 && x > 0 ? labels[i - width - 1] : 0;
      const upRight = y > 0 && x < width - 1 ? labels[i - width + 1] : 0;
      let label = 0;
      for (const n of [left, up, upLeft, upRight]) if (n && (!label || n < label)) label = n;
      if (!label) {
        if (next === parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[next] = next;
        labels[i] = next++;
      } else {
        labels[i] = label;
        if (left && left !== label) union(label, left);
        if (up && up !== label) union(label, up);
        if (upLeft && upLeft !== label) union(label, upLeft);
        if (upRight && upRight !== label) union(label, upRight);
      }
    }
  }
  const minY = new Int32Array(next).fill(-1);
  const maxY = new Int32Array(next);
  const minX = new Int32Array(next);
  const maxX = new Int32Array(next);
  const area = new Int32Array(next);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const label = labels[y * width + x];
      if (!label) continue;
      const root = find(label);
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
