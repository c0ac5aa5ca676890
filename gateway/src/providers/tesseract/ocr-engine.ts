import type { GrayImage } from '../_shared/media/decode-image.js';
import type { EngineStatus, OcrBlock } from '../types.js';

/** Which Tesseract runs the recognition: the machine's `tesseract` command, or tesseract.js (WebAssembly). */
export type EngineKind = 'native' | 'wasm';

/** One Tesseract behind a worker pool: recognises a page with automatic page segmentation (columns, blocks). */
export interface OcrEngine {
  readonly kind: EngineKind;
  readonly workers: number;
  /** Blocks (Tesseract paragraphs) in Tesseract's order, boxes in `image`'s pixels. */
  recognize(image: GrayImage, signal: AbortSignal): Promise<OcrBlock[]>;
  warm(): Promise<void>;
  status(): EngineStatus;
  close(): Promise<void>;
}
