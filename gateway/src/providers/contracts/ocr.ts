import type { OcrPage } from '../../ocr-layout/ocr-page.js';

export type {
  BoxCoordinates,
  OcrBlock,
  OcrBlockKind,
  OcrLine,
  OcrPage,
  OcrWord,
  PageLanguage,
} from '../../ocr-layout/ocr-page.js';

export interface OcrRequest {
  model: string;
  document: Buffer;
  /** Sniffed from the bytes by the caller, once: image/png, image/jpeg, application/pdf, ... */
  mimeType: string;
  /** 0-based page indices to process; all pages when absent. */
  pages?: number[];
  /**
   * Languages to read in (Tesseract's codes, e.g. ['fra'] or ['rus', 'eng']): detection is skipped.
   * Absent: each page's script and language are detected. A provider that reads every language ignores it.
   */
  languages?: string[];
  signal: AbortSignal;
  /**
   * Also each page's resolution and picture areas (OcrPage's `dpi` and `pictures`), none under `minSize`
   * pixels a side (null: 8 % of the page's shorter side); `keepImages`: a page with pictures keeps its
   * image (`image`), to cut them out. A provider that sees no pixels leaves them out.
   */
  pictures?: { minSize: number | null; keepImages: boolean };
}

export interface OcrResult {
  pages: OcrPage[];
}

export interface OcrProvider {
  ocr(request: OcrRequest): Promise<OcrResult>;
  /**
   * A local engine's installed language models (Tesseract's codes), once it has started; undefined
   * before, and for a provider that reads every language (an upstream).
   */
  languages?(): readonly string[] | undefined;
  /** Where each installed language model comes from, as `languages()`, for the console's catalog. */
  languageSources?(): ReadonlyMap<string, 'system' | 'npm' | 'download'> | undefined;
}
