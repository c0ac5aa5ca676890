import type { PageRules } from './page-rules.js';

/** An 8-bit grayscale image, one byte per pixel, row-major. */
export interface GrayImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** [x1, y1, x2, y2] in pixels of the page image, top-left origin, x2/y2 exclusive. */
export type BoxCoordinates = [number, number, number, number];

export interface OcrWord {
  text: string;
  bbox: BoxCoordinates;
  /** 0..1 */
  confidence: number;
}
export interface OcrLine extends OcrWord {
  words: OcrWord[];
}
/** What a block is on the page, where the layout says so: a running header or footer, or a table read row by row. */
export type OcrBlockKind = 'header' | 'footer' | 'table';
export interface OcrBlock extends OcrWord {
  lines: OcrLine[];
  /** Absent for body text (paragraphs, captions, list items). */
  kind?: OcrBlockKind;
  /** The block's language (Tesseract's code), where its text shows one other than the page's. */
  language?: string;
}

/** The language a page was read in, and how it was chosen. */
export interface PageLanguage {
  /** Tesseract's codes of the models the page was read with (`eng`, `fra`, `rus+eng`, ...). */
  read: string[];
  /** The language found on the page, or the first one the request named; null when nothing could be told (no text). */
  detected: string | null;
  /** The page's script (Latin, Cyrillic, Greek, Han, Japanese, ...), when known. */
  script: string | null;
  /** `named`: the request named the languages; `detected`: the engine found them. */
  source: 'named' | 'detected';
  /** The detected language when no model for it is installed: the page was read without it (or not at all). */
  missing?: string;
}

export interface OcrPage {
  /** 0-based page index in the document. */
  index: number;
  width: number;
  height: number;
  text: string;
  blocks: OcrBlock[];
  /** 'text_layer' when a PDF page's own text was used, 'ocr' when it was recognised. */
  source: 'ocr' | 'text_layer';
  /** 0..1: the recogniser's mean word confidence (weighted by length); 1 for a text layer, 0 for a page with no text. */
  confidence?: number;
  /** Pixels per inch of the page image (a PDF page's render resolution, an image's own density or 72). */
  dpi?: number;
  /** Picture areas (photos, charts, drawings: see findFigures), top to bottom, when the request asked for them. */
  pictures?: BoxCoordinates[];
  /** The page's drawn rules (table grids, underlines), found with its pictures. */
  rules?: PageRules;
  /** The language the page was read in (recognised pages only). */
  language?: PageLanguage;
  /** The page image as it was read, kept when the request asked for it and the page has pictures. */
  image?: GrayImage;
}
