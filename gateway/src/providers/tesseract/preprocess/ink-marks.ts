import type { BoxCoordinates } from '../../contracts/ocr.js';

/** One 8-connected ink component: its box and how many pixels it has. */
export interface InkMark {
  bbox: BoxCoordinates;
  area: number;
}

/**
 * The 8-connected ink components of a binary image (1 = ink) with at least `minArea` pixels, by
 * two-pass labelling with union-find (typed arrays: a grainy page has hundreds of thousands of them).
 * Returns the marks and each pixel's component (0 for paper and for marks left out).
 */
export function inkMarks(binary: Uint8Array, width: number, height: number, minArea: number): { marks: InkMark[]; labels: Int32Array; ids: Int32Array } {
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
      const left = x > 0 ? labels[i - 1] : 0;
      const up = y > 0 ? labels[i - width] : 0;
      const upLeft = y > 0 && x > 0 ? labels[i - width - 1] : 0;
      const upRight = y > 0 && x < width - 1 ? labels[i - width + 1] : 0;
      let label = 0;
      if (left && (!label || left < label)) label = left;
      if (up && (!label || up < label)) label = up;
      if (upLeft && (!label || upLeft < label)) label = upLeft;
      if (upRight && (!label || upRight < label)) label = upRight;
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
  const minX = new Int32Array(next).fill(width);
  const minY = new Int32Array(next).fill(height);
  const maxX = new Int32Array(next).fill(-1);
  const maxY = new Int32Array(next).fill(-1);
  const area = new Int32Array(next);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!labels[i]) continue;
      const root = find(labels[i]);
      labels[i] = root;
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
