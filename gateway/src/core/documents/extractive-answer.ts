import type { RankedPassage } from './rank-passages.js';
import { inverseDocumentFrequency } from './rank-passages.js';
import { searchTerms } from './search-terms.js';

export interface ExtractiveAnswer {
  /** The supporting sentence, as it appears in the page text. */
  text: string;
  page: number;
  /** Offsets of the sentence in the page's text: [start, end). */
  start: number;
  end: number;
  score: number;
}

/**
 * Picks the sentence (or line) of the ranked passages that best supports an answer: the one covering
 * the most question terms, weighted by rarity across the candidate sentences, ties going to the
 * higher-ranked passage. Null when no sentence shares a term with the question.
 */
export function extractiveAnswer(question: string, passages: RankedPassage[]): ExtractiveAnswer | null {
  const queryTerms = [...new Set(searchTerms(question))];
  const sentences: Omit<ExtractiveAnswer, 'score'>[] = [];
  for (const { passage } of passages) {
    // A sentence ends at . ! or ? followed by a space (so "8.2" does not end one), or at a line end.
    const pattern = /[^\n]+?(?:[.!?]+(?=\s|$)|(?=\n|$))/g;
    for (const match of passage.text.matchAll(pattern)) {
      const raw = match[0];
      const lead = raw.length - raw.trimStart().length;
      const text = raw.trim();
      if (!text) continue;
      const start = passage.start + (match.index ?? 0) + lead;
      sentences.push({ text, page: passage.page, start, end: start + text.length });
    }
  }
  const terms = sentences.map((s) => searchTerms(s.text));
  const idf = inverseDocumentFrequency(terms, queryTerms);
  let best: ExtractiveAnswer | null = null;
  sentences.forEach((sentence, i) => {
    const present = new Set(terms[i]);
    let score = 0;
    for (const term of queryTerms) if (present.has(term)) score += (idf.get(term) ?? 0) + 1;
    if (score > 0 && (!best || score > best.score)) best = { ...sentence, score };
  });
  return best;
}
