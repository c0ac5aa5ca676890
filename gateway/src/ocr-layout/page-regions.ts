import { boxHeight, median } from './box-geometry.js';
import type { BoxCoordinates, OcrLine } from './ocr-page.js';

/** The region types a page is cut into, named as Mistral's OCR blocks name them. */
export type RegionType = 'title' | 'text' | 'list' | 'table' | 'caption' | 'image' | 'header' | 'footer';

/** A typed region of a page, in reading order, with the lines it holds (none for an image). */
export interface PageRegion {
  type: RegionType;
  bbox: BoxCoordinates;
  lines: OcrLine[];
  /** Heading level 1–3 for a title. */
  level?: number;
  /** Cell texts, row by row (the first row is the header), for a table. */
  rows?: string[][];
}

/** The height of the page's body text: the median line height, each line weighted by its words. */
export function bodyLineHeight(lines: OcrLine[]): number {
  return median(lines.flatMap((line) => line.words.map(() => boxHeight(line.bbox))));
}
