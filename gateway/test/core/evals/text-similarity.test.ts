import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../../src/core/embeddings/cosine-similarity.js';
import { textSimilarity } from '../../../src/core/evals/text-similarity.js';
import { stringCheck } from '../../../src/core/evals/string-check.js';

describe('text_similarity metrics, against hand-computed values', () => {
  it('fuzzy_match is 2·LCS / (|a| + |b|) over characters', () => {
    // "kitten" / "sitting": LCS "ittn" = 4 → 8 / 13.
    expect(textSimilarity('fuzzy_match', 'kitten', 'sitting')).toBeCloseTo(8 / 13, 12);
    expect(textSimilarity('fuzzy_match', 'same', 'same')).toBe(1);
    expect(textSimilarity('fuzzy_match', '', '')).toBe(1);
  });

  it('bleu: geometric mean of clipped 1-4-gram precisions with the brevity penalty, 0 when an order has no match', () => {
    // 6 words against 7: p1 6/6, p2 4/5, p3 3/4, p4 2/3 ("sat on the mat" is not in the reference); BP exp(1 - 7/6).
    expect(textSimilarity('bleu', 'the cat sat on the mat', 'the cat sat on the red mat')).toBeCloseTo(
      Math.exp(1 - 7 / 6) * ((4 / 5) * (3 / 4) * (2 / 3)) ** 0.25,
      12,
    );
    // Longer than the reference (no penalty): p1 6/7, p2 5/6, p3 4/5, p4 3/4.
    expect(textSimilarity('bleu', 'the cat sat on the mat today', 'the cat sat on the mat')).toBeCloseTo(
      ((6 / 7) * (5 / 6) * (4 / 5) * (3 / 4)) ** 0.25,
      12,
    );
    // Three words have no 4-gram: no smoothing, so 0.
    expect(textSimilarity('bleu', 'a b c', 'a b c')).toBe(0);
  });

  it('gleu: all clipped 1-4-gram matches over the larger n-gram count', () => {
    // Candidate a b c d (4+3+2+1 = 10 n-grams), reference a b x d (10): matches a b d, ab → 4 → 0.4.
    expect(textSimilarity('gleu', 'a b c d', 'a b x d')).toBeCloseTo(0.4, 12);
  });

  it('meteor: exact lower-cased matches, Fmean with α 0.9 and the fragmentation penalty', () => {
    // Candidate "The cat sat" vs "the cat sat down": m 3, P 1, R 3/4, Fmean = 0.75 / (0.9 + 0.075);
    // one chunk: penalty 0.5·(1/3)^3.
    const fmean = (1 * 0.75) / (0.9 * 1 + 0.1 * 0.75);
    expect(textSimilarity('meteor', 'The cat sat', 'the cat sat down')).toBeCloseTo(fmean * (1 - 0.5 / 27), 12);
    // Two chunks ("sat", "the cat" swapped): penalty 0.5·(2/3)^3.
    expect(textSimilarity('meteor', 'sat the cat', 'the cat sat')).toBeCloseTo(1 * (1 - 0.5 * (2 / 3) ** 3), 12);
  });

  it('rouge_n and rouge_l are F1 scores on lower-cased words', () => {
    // Bigrams: candidate (the cat)(cat sat), reference (the cat)(cat was)(was here): P 1/2, R 1/3 → F 0.4.
    expect(textSimilarity('rouge_2', 'The cat sat', 'the cat was here')).toBeCloseTo(0.4, 12);
    // Unigrams: 2 of 3 and 2 of 4 → F = 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7.
    expect(textSimilarity('rouge_1', 'The cat sat', 'the cat was here')).toBeCloseTo(4 / 7, 12);
    expect(textSimilarity('rouge_l', 'a quick brown fox', 'a quick red fox')).toBeCloseTo(0.75, 12);
    expect(textSimilarity('rouge_5', 'too short', 'too short')).toBe(0);
  });

  it('cosine is the cosine of the angle between the vectors', () => {
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
  });
});

describe('string_check', () => {
  it('eq and ne are exact, like contains, ilike contains ignoring case', () => {
    expect(stringCheck('eq', 'Paris', 'Paris')).toBe(true);
    expect(stringCheck('eq', 'Paris', 'paris')).toBe(false);
    expect(stringCheck('ne', 'Paris', 'paris')).toBe(true);
    expect(stringCheck('like', 'in Paris.', 'Paris')).toBe(true);
    expect(stringCheck('like', 'in paris.', 'Paris')).toBe(false);
    expect(stringCheck('ilike', 'in paris.', 'PARIS')).toBe(true);
  });
});
