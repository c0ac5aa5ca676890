/**
 * The 8-connected ink components of a binary image (1 = ink), by two-pass labelling with union-find
 * (typed arrays: a grainy page has hundreds of thousands of them). Each ink pixel gets its component's
 * label (1 to `count - 1`; labels of merged components are left unused), paper gets 0.
 */
export function labelComponents(
  binary: Uint8Array,
  width: number,
  height: number,
): { labels: Int32Array; count: number } {
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
  for (let i = 0; i < labels.length; i++) if (labels[i]) labels[i] = find(labels[i]);
  return { labels, count: next };
}
