export interface ComponentStats {
  /** Number of 8-connected ink components. */
  count: number;
  /** Median height of components that look like glyphs, or 0 when there are none. */
  medianGlyphHeight: number;
  /** Fraction of components of at most 2 pixels: specks from noise. */
  speckRatio: number;
}

/** Connected-component statistics of a binary image (1 = ink), by two-pass labelling with union-find. */
export function componentStats(binary: Uint8Array, width: number, height: number): ComponentStats {
  const labels = new Int32Array(binary.length);
  const parent: number[] = [0];
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
      const neighbours: number[] = [];
      if (x > 0 && labels[i - 1]) neighbours.push(labels[i - 1]);
      if (y > 0) {
        if (labels[i - width]) neighbours.push(labels[i - width]);
        if (x > 0 && labels[i - width - 1]) neighbours.push(labels[i - width - 1]);
        if (x < width - 1 && labels[i - width + 1]) neighbours.push(labels[i - width + 1]);
      }
      if (neighbours.length === 0) {
        const label = parent.length;
        parent.push(label);
        labels[i] = label;
      } else {
        const label = Math.min(...neighbours);
        labels[i] = label;
        for (const n of neighbours) union(label, n);
      }
    }
  }
  const boxes = new Map<number, { minY: number; maxY: number; minX: number; maxX: number; area: number }>();
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const label = labels[y * width + x];
      if (!label) continue;
      const root = find(label);
      const box = boxes.get(root);
      if (box) {
        if (y > box.maxY) box.maxY = y;
        if (x < box.minX) box.minX = x;
        if (x > box.maxX) box.maxX = x;
        box.area++;
      } else {
        boxes.set(root, { minY: y, maxY: y, minX: x, maxX: x, area: 1 });
      }
    }
  }
  const heights: number[] = [];
  let specks = 0;
  for (const box of boxes.values()) {
    if (box.area <= 2) specks++;
    const h = box.maxY - box.minY + 1;
    const w = box.maxX - box.minX + 1;
    // Glyph-like: not a speck, not a rule or a picture.
    if (box.area >= 4 && h >= 3 && w <= 4 * h && h <= height / 4) heights.push(h);
  }
  heights.sort((a, b) => a - b);
  return {
    count: boxes.size,
    medianGlyphHeight: heights.length ? heights[Math.floor(heights.length / 2)] : 0,
    speckRatio: boxes.size ? specks / boxes.size : 0,
  };
}
