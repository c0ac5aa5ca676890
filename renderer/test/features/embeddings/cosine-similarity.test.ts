import { describe, expect, it } from 'vitest';
import { cosineSimilarity, cosineSimilarityMatrix } from '../../../src/features/embeddings/cosine-similarity';

describe('cosine similarity', () => {
  it('is 1 for the same direction, 0 for orthogonal, -1 for opposite, whatever the length', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 5])).toBeCloseTo(0, 12);
    expect(cosineSimilarity([1, -1], [-3, 3])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([1, 0], [1, 1])).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('treats a zero vector as unrelated instead of NaN, and refuses mismatched lengths', () => {
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/differ in length/);
  });

  it('builds a symmetric matrix with 1 on the diagonal', () => {
    const m = cosineSimilarityMatrix([
      [1, 0, 0],
      [1, 1, 0],
      [0, 0, 2],
    ]);
    expect(m).toHaveLength(3);
    for (let i = 0; i < 3; i++) {
      expect(m[i][i]).toBe(1);
      for (let j = 0; j < 3; j++) expect(m[i][j]).toBeCloseTo(m[j][i], 12);
    }
    expect(m[0][1]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(m[0][2]).toBeCloseTo(0, 12);
  });
});
