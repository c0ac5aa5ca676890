/** Each label's examples as unit vectors (the embedder L2-normalises). */
export type LabelVectors = ReadonlyMap<string, readonly Float32Array[]>;

/** Calibration of the moderation scores: the offset fitted (best F1) on the even lines of OpenAI's public moderation test set; docs/routing.md has the figures on the odd ones. */
const MODERATION_SLOPE = 14;
const MODERATION_OFFSET = -0.092;

function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index] * b[index];
  return sum;
}

/** The mean of the two best similarities of a text's pieces to each label's examples (a long text is judged by its worst piece). */
export function labelSimilarities(pieces: readonly Float32Array[], labels: LabelVectors): Map<string, number> {
  const result = new Map<string, number>();
  for (const [label, examples] of labels) {
    let best = -1;
    for (const piece of pieces) {
      const similarities = examples.map((example) => cosine(piece, example)).sort((a, b) => b - a);
      const top = similarities.slice(0, 2);
      best = Math.max(best, top.reduce((sum, value) => sum + value, 0) / Math.max(top.length, 1));
    }
    result.set(label, best);
  }
  return result;
}

/**
 * A moderation score in [0, 1] per category: a logistic of how much nearer the text is to the
 * category's examples than to ordinary text (`safeLabel`'s), so 0.5 is "as near to one as to the other".
 */
export function moderationScores(similarities: ReadonlyMap<string, number>, safeLabel: string): Record<string, number> {
  const safe = similarities.get(safeLabel) ?? 0;
  const scores: Record<string, number> = {};
  for (const [label, similarity] of similarities) {
    if (label === safeLabel) continue;
    const margin = similarity - safe + MODERATION_OFFSET;
    scores[label] = Math.round((1 / (1 + Math.exp(-MODERATION_SLOPE * margin))) * 1e6) / 1e6;
  }
  return scores;
}

/** Classification scores that sum to 1: a softmax of the similarities, sharp enough that the nearest label clearly wins. */
export function classificationScores(similarities: ReadonlyMap<string, number>): Record<string, number> {
  const entries = [...similarities];
  const top = Math.max(...entries.map(([, value]) => value));
  const weights = entries.map(([label, value]) => [label, Math.exp(20 * (value - top))] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  return Object.fromEntries(weights.map(([label, weight]) => [label, Math.round((weight / total) * 1e6) / 1e6]));
}
