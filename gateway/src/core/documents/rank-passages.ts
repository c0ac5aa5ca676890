import type { Passage } from './chunk-document.js';
import { searchTerms } from './search-terms.js';

export interface RankedPassage {
  passage: Passage;
  score: number;
}

/** Inverse document frequency of each term over the passages (BM25's smoothed form, never negative). */
export function inverseDocumentFrequency(passages: string[][], terms: Iterable<string>): Map<string, number> {
  const idf = new Map<string, number>();
  for (const term of terms) {
    const containing = passages.filter((p) => p.includes(term)).length;
    idf.set(term, Math.log(1 + (passages.length - containing + 0.5) / (containing + 0.5)));
  }
  return idf;
}

/**
 * The `k` passages most relevant to `question` by BM25 (k1 = 1.2, b = 0.75) over stemmed content
 * words, best first; passages sharing no term with the question are left out.
 */
export function rankPassages(passages: Passage[], question: string, k = 3): RankedPassage[] {
  const queryTerms = [...new Set(searchTerms(question))];
  const documents = passages.map((p) => searchTerms(p.text));
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / Math.max(1, documents.length);
  const idf = inverseDocumentFrequency(documents, queryTerms);
  const k1 = 1.2;
  const b = 0.75;
  return passages
    .map((passage, i) => {
      const terms = documents[i];
      let score = 0;
      for (const term of queryTerms) {
        const frequency = terms.filter((t) => t === term).length;
        if (frequency === 0) continue;
        score +=
          (idf.get(term) ?? 0) *
          ((frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * terms.length) / averageLength)));
      }
      return { passage, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b2) => b2.score - a.score || a.passage.id - b2.passage.id)
    .slice(0, k);
}
