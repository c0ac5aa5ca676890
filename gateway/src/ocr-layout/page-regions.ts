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
