import type { Citation } from '../../../../gateway/src/wire/citation-schema';

export interface TextSegment {
  text: string;
  /** Index into the citations array when this segment is cited. */
  citation: number | null;
}

/**
 * Cuts the document text into plain and cited segments. Offsets are clamped to the text, and
 * overlapping citations are trimmed so every character belongs to one segment.
 */
export function segmentCitedText(text: string, citations: readonly Citation[]): TextSegment[] {
  const ranges = citations
    .map((c, i) => ({
      start: Math.max(0, Math.min(text.length, c.start)),
      end: Math.max(0, Math.min(text.length, c.end)),
      i,
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const segments: TextSegment[] = [];
  let cursor = 0;
  for (const range of ranges) {
    const start = Math.max(range.start, cursor);
    if (start >= range.end) continue;
    if (start > cursor) segments.push({ text: text.slice(cursor, start), citation: null });
    segments.push({ text: text.slice(start, range.end), citation: range.i });
    cursor = range.end;
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor), citation: null });
  return segments;
}
