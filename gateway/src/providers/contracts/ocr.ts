import type { OcrPage } from '../../ocr-layout/ocr-page.js';

export type { BoxCoordinates, OcrBlock, OcrBlockKind, OcrLine, OcrPage, OcrWord } from '../../ocr-layout/ocr-page.js';

export interface OcrRequest {
  model: string;
  document: Buffer;
  /** Sniffed from the bytes by the caller: image/png, image/jpeg, application/pdf, ... */
  mimeType: string;
  /** 0-based page indices to process; all pages when absent. */
  pages?: number[];
  signal: AbortSignal;
}

export interface OcrResult {
  pages: OcrPage[];
}

export interface OcrProvider {
  ocr(request: OcrRequest): Promise<OcrResult>;
}
