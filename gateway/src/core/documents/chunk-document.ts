import type { OcrResult } from '../../providers/contracts/ocr.js';

export interface Passage {
  /** Position in the document's passage list. */
  id: number;
  /** 0-based page index. */
  page: number;
  text: string;
  /** Character offsets of `text` in the page's text: [start, end). */
  start: number;
  end: number;
}

/**
 * Splits recognised pages into passages for retrieval: consecutive blocks of a page are joined until a
 * passage would exceed `maxChars`; a block longer than that is cut at sentence ends (or spaces).
 * Offsets point into `page.text`, so an answer can be shown in place.
 */
export function chunkDocument(result: OcrResult, maxChars = 600): Passage[] {
  const passages: Passage[] = [];
  for (const page of result.pages) {
    // Pieces with their offsets: blocks, and long blocks cut into sentences.
    const pieces: { start: number; end: number }[] = [];
    let cursor = 0;
    for (const block of page.blocks) {
      const start = page.text.indexOf(block.text, cursor);
      if (start < 0) continue;
      const end = start + block.text.length;
      cursor = end;
      let from = start;
      while (end - from > maxChars) {
        const window = page.text.slice(from, from + maxChars);
        // The last sentence end or line break in the window, else the last space.
        const ends = [...window.matchAll(/[.!?](?=\s)|\n/g)].map((m) => (m.index ?? 0) + 1);
        const cut = ends.length ? ends[ends.length - 1] : window.lastIndexOf(' ');
        const at = cut > maxChars / 4 ? from + cut : from + maxChars;
        pieces.push({ start: from, end: at });
        from = at;
        while (from < end && /\s/.test(page.text[from])) from++;
      }
      if (from < end) pieces.push({ start: from, end });
    }
    let current: { start: number; end: number } | undefined;
    const flush = (): void => {
      if (!current) return;
      passages.push({
        id: passages.length,
        page: page.index,
        text: page.text.slice(current.start, current.end),
        start: current.start,
        end: current.end,
      });
      current = undefined;
    };
    for (const piece of pieces) {
      if (current && piece.end - current.start > maxChars) flush();
      current = current ? { start: current.start, end: piece.end } : { ...piece };
    }
    flush();
  }
  return passages;
}
