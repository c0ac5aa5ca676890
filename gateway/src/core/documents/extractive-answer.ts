import type { RankedPassage } from './rank-passages.js';
import { inverseDocumentFrequency } from './rank-passages.js';
import { searchTerms } from './search-terms.js';

const DATE_LIKE = /\b(\d{4}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

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
 * the most question terms, weighted by rarity across the candidate sentences, with a bonus when it
 * holds the kind of answer asked for (a number for "how many", a date for "when"), ties going to the
 * higher-ranked passage. Null when no sentence shares a term with the question.
 */
export function extractiveAnswer(question: string, passages: RankedPassage[]): ExtractiveAnswer | null {
  const queryTerms = [...new Set(searchTerms(question))];
  // The expected answer type: a sentence holding a number or a date is a better answer to these.
  const wantsNumber = /\b(how (many|much|long|old)|what (is|was) the (total|amount|number|price|cost))\b/i.test(
    question,
  );
  const wantsDate = /\bwhen\b|\bwhat (date|year|day)\b/i.test(question);
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
    if (score > 0 && wantsNumber && /\d/.test(sentence.text)) score += 0.5;
    if (score > 0 && wantsDate && DATE_LIKE.test(sentence.text)) score += 0.5;
    if (score > 0 && (!best || score > best.score)) best = { ...sentence, score };
  });
  return best;
}
