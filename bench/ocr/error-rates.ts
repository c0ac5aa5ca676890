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

const bagWords = (text: string): string[] =>
  normalise(text)
    .toLowerCase()
    .split(' ')
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);

/** Bag-of-words F1: words found regardless of order (1 when both texts are empty). */
export function bagOfWordsF1(truth: string, recognised: string): number {
  const t = bagWords(truth);
  const r = bagWords(recognised);
  if (t.length === 0 && r.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
  let hits = 0;
  for (const w of r) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      hits++;
      counts.set(w, left - 1);
    }
  }
  const precision = hits / Math.max(1, r.length);
  const recall = hits / Math.max(1, t.length);
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}
