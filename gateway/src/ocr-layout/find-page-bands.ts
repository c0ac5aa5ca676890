import type { OcrLine, OcrPage } from './ocr-page.js';
import { boxHeight } from './box-geometry.js';
import { bodyLineHeight } from './page-regions.js';

/** Top and bottom bands, as fractions of the page height, where a running header or footer sits. */
const BAND = 0.1;
/** A band line at most this fraction of the body text's height counts as small print. */
const SMALL = 0.85;
const PAGE_NUMBER = /^(page|p\.|-|–)?\s*\d{1,4}\s*((of|\/)\s*\d{1,4})?\s*(-|–)?$/i;

export interface PageBands {
  header: OcrLine[];
  footer: OcrLine[];
}

const pageLines = (page: OcrPage): OcrLine[] => page.blocks.flatMap((block) => block.lines);
/** Text with digits folded, so "Page 3" on one page repeats "Page 4" on the next. */
const repeatKey = (line: OcrLine): string => line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/**
 * Running headers and footers by position: lines in the top or bottom tenth of a page that repeat on
 * another page (digits aside), or that stand apart from the page's other text (their block stays in
 * the band) and are smaller than the body text or a page number. A page whose every line sits in a band keeps them all as content.
 */
export function findPageBands(pages: OcrPage[]): PageBands[] {
  const inTop = (page: OcrPage, line: OcrLine) => line.bbox[3] <= page.height * BAND;
  const inBottom = (page: OcrPage, line: OcrLine) => line.bbox[1] >= page.height * (1 - BAND);
  const seen = { top: new Map<string, number>(), bottom: new Map<string, number>() };
  for (const page of pages) {
    const top = new Set(
      pageLines(page)
        .filter((line) => inTop(page, line))
        .map(repeatKey),
    );
    const bottom = new Set(
      pageLines(page)
        .filter((line) => inBottom(page, line))
        .map(repeatKey),
    );
    for (const key of top) seen.top.set(key, (seen.top.get(key) ?? 0) + 1);
    for (const key of bottom) seen.bottom.set(key, (seen.bottom.get(key) ?? 0) + 1);
  }
  return pages.map((page) => {
    const lines = pageLines(page);
    const body = bodyLineHeight(lines);
    // A line whose block runs on past the band is the first (or last) line of a column, not apart from
    // the page's text: a scan with a narrow margin starts its columns in the top tenth.
    const inBlockPast = new Set<OcrLine>();
    for (const block of page.blocks) {
      if (block.lines.some((line) => !inTop(page, line)))
        block.lines.filter((line) => inTop(page, line)).forEach((line) => inBlockPast.add(line));
      if (block.lines.some((line) => !inBottom(page, line)))
        block.lines.filter((line) => inBottom(page, line)).forEach((line) => inBlockPast.add(line));
    }
    const isRunning = (line: OcrLine, repeats: Map<string, number>) =>
      (repeats.get(repeatKey(line)) ?? 0) > 1 ||
      (!inBlockPast.has(line) && (boxHeight(line.bbox) <= body * SMALL || PAGE_NUMBER.test(line.text.trim())));
    const header = lines.filter((line) => inTop(page, line) && isRunning(line, seen.top));
    const footer = lines.filter((line) => inBottom(page, line) && isRunning(line, seen.bottom));
    if (header.length + footer.length === lines.length) return { header: [], footer: [] };
    return { header, footer };
  });
}
