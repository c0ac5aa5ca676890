export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`Vectors differ in length: ${a.length} and ${b.length}.`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  // A zero vector has no direction: call it unrelated rather than dividing by zero.
  if (normA === 0 || normB === 0) return 0;
  return dot / Math.sqrt(normA * normB);
}

/** The symmetric matrix of pairwise cosine similarities, with exactly 1 on the diagonal. */
export function cosineSimilarityMatrix(vectors: readonly (readonly number[])[]): number[][] {
  const n = vectors.length;
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    matrix[i][i] = vectors[i].some((v) => v !== 0) ? 1 : 0;
    for (let j = i + 1; j < n; j++) {
      const s = cosineSimilarity(vectors[i], vectors[j]);
      matrix[i][j] = s;
      matrix[j][i] = s;
    }
  }
  return matrix;
}
