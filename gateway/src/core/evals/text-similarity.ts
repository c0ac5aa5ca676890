import type { TextSimilarityMetric } from '../../wire/eval-schemas.js';

/**
 * The text_similarity grader's metrics, each between 0 and 1, computed here by their standard
 * definitions (`input` is the candidate, `reference` the reference; docs/evals.md lists the choices):
 * - fuzzy_match: the normalised Indel similarity of the two strings' characters, 1 - (insertions +
 *   deletions) / (|a| + |b|), i.e. 2·LCS / (|a| + |b|): rapidfuzz's `fuzz.ratio` / 100, which OpenAI names.
 * - bleu: sentence BLEU (Papineni et al., 2002): the geometric mean of the clipped 1- to 4-gram
 *   precisions times the brevity penalty exp(1 - r/c) when c ≤ r; no smoothing (a missing order is 0),
 *   as NLTK's `sentence_bleu` defaults.
 * - gleu: Google BLEU (Wu et al., 2016), as NLTK's `sentence_gleu`: the clipped 1- to 4-gram matches
 *   over the larger of the candidate's and the reference's n-gram counts (the minimum of precision and recall).
 * - meteor: METEOR (Banerjee and Lavie, 2005) with NLTK's parameters (α 0.9, β 3, γ 0.5) on exact,
 *   lower-cased word matches (no stemming or synonyms): Fmean = P·R / (α·P + (1-α)·R), times
 *   1 - γ·(chunks / matches)^β.
 * - rouge_1 … rouge_5: ROUGE-N (Lin, 2004) F1 of the clipped n-gram overlap; rouge_l: the F1 of the
 *   longest common subsequence of words; both on lower-cased letters-and-digits words, as the
 *   `rouge_score` package tokenises.
 * Cosine, on embeddings, is `cosineSimilarity` of core/embeddings (the vectors come from the embedding model).
 */
export function textSimilarity(
  metric: Exclude<TextSimilarityMetric, 'cosine'>,
  input: string,
  reference: string,
): number {
  switch (metric) {
    case 'fuzzy_match':
      return fuzzyMatch(input, reference);
    case 'bleu':
      return bleu(tokens(input), tokens(reference));
    case 'gleu':
      return gleu(tokens(input), tokens(reference));
    case 'meteor':
      return meteor(tokens(input.toLowerCase()), tokens(reference.toLowerCase()));
    case 'rouge_l':
      return f1(
        lcsLength(rougeTokens(input), rougeTokens(reference)),
        rougeTokens(input).length,
        rougeTokens(reference).length,
      );
    default:
      return rougeN(Number(metric.slice('rouge_'.length)), rougeTokens(input), rougeTokens(reference));
  }
}

/** Words (letters, digits, underscores) and each punctuation mark on its own. */
const tokens = (text: string): string[] => text.match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
/** rouge_score's tokens: lower-cased runs of letters and digits. */
const rougeTokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const current = [0];
    for (let j = 0; j < b.length; j++)
      current.push(x === b[j] ? previous[j]! + 1 : Math.max(previous[j + 1]!, current[j]!));
    previous = current;
  }
  return previous[b.length]!;
}

function fuzzyMatch(a: string, b: string): number {
  const [x, y] = [[...a], [...b]];
  if (x.length + y.length === 0) return 1;
  return (2 * lcsLength(x, y)) / (x.length + y.length);
}

function ngrams(words: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let start = 0; start + n <= words.length; start++) {
    const gram = words.slice(start, start + n).join('\u0000');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** Clipped matches of the candidate's n-grams in the reference's, and both totals. */
function overlap(candidate: readonly string[], reference: readonly string[], n: number) {
  const [ours, theirs] = [ngrams(candidate, n), ngrams(reference, n)];
  let matches = 0;
  for (const [gram, count] of ours) matches += Math.min(count, theirs.get(gram) ?? 0);
  return {
    matches,
    candidate: Math.max(0, candidate.length - n + 1),
    reference: Math.max(0, reference.length - n + 1),
  };
}

const f1 = (matches: number, candidate: number, reference: number): number => {
  if (matches === 0 || candidate === 0 || reference === 0) return 0;
  const [precision, recall] = [matches / candidate, matches / reference];
  return (2 * precision * recall) / (precision + recall);
};

function bleu(candidate: string[], reference: string[]): number {
  if (candidate.length === 0) return 0;
  let logSum = 0;
  for (let n = 1; n <= 4; n++) {
    const { matches, candidate: total } = overlap(candidate, reference, n);
    if (matches === 0 || total === 0) return 0;
    logSum += Math.log(matches / total) / 4;
  }
  const brevity = candidate.length > reference.length ? 1 : Math.exp(1 - reference.length / candidate.length);
  return brevity * Math.exp(logSum);
}

function gleu(candidate: string[], reference: string[]): number {
  let [matches, candidateTotal, referenceTotal] = [0, 0, 0];
  for (let n = 1; n <= 4; n++) {
    const counts = overlap(candidate, reference, n);
    matches += counts.matches;
    candidateTotal += counts.candidate;
    referenceTotal += counts.reference;
  }
  const total = Math.max(candidateTotal, referenceTotal);
  return total === 0 ? 0 : matches / total;
}

function meteor(candidate: string[], reference: string[]): number {
  const used = new Set<number>();
  const aligned: [number, number][] = [];
  candidate.forEach((word, index) => {
    const match = reference.findIndex((other, at) => other === word && !used.has(at));
    if (match >= 0) {
      used.add(match);
      aligned.push([index, match]);
    }
  });
  const matches = aligned.length;
  if (matches === 0) return 0;
  const [precision, recall] = [matches / candidate.length, matches / reference.length];
  const alpha = 0.9;
  const fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall);
  let chunks = 1;
  for (let at = 1; at < aligned.length; at++) {
    const [[candidateBefore, referenceBefore], [candidateNow, referenceNow]] = [aligned[at - 1]!, aligned[at]!];
    if (candidateNow !== candidateBefore + 1 || referenceNow !== referenceBefore + 1) chunks++;
  }
  const penalty = 0.5 * (chunks / matches) ** 3;
  return fmean * (1 - penalty);
}

function rougeN(n: number, candidate: string[], reference: string[]): number {
  const counts = overlap(candidate, reference, n);
  return f1(counts.matches, counts.candidate, counts.reference);
}
