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
  /** A table's cells with their boxes (what `rows` holds, placed on the page). */
  cells?: TableCell[];
  /** How a table was found: by its drawn grid, or by words lining up in columns. */
  ruling?: 'ruled' | 'unruled';
  /** The table on an earlier page that this one continues (the first part of the chain). */
  continues?: PageRegion;
}

/** One cell of a table: its row and column in `rows` (0-based), the columns it spans, its text and box. */
export interface TableCell {
  row: number;
  col: number;
  colSpan: number;
  text: string;
  bbox: BoxCoordinates;
}
