/** Levenshtein distance between two sequences. */
export function editDistance<T>(a: readonly T[], b: readonly T[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

function normalise(text: string): string {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
}

/** Character error rate: edits to turn the recognised text into the truth, over the truth's length (whitespace collapsed). */
export function characterErrorRate(truth: string, recognised: string): number {
  const t = [...normalise(truth)];
  return editDistance(t, [...normalise(recognised)]) / Math.max(1, t.length);
}

/** Word error rate over whitespace-separated words. */
export function wordErrorRate(truth: string, recognised: string): number {
  const t = normalise(truth).split(' ').filter(Boolean);
  return editDistance(t, normalise(recognised).split(' ').filter(Boolean)) / Math.max(1, t.length);
}
