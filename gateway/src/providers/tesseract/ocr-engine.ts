import type { GrayImage } from '../../media/image/decode-image.js';
import type { EngineStatus, QueueDepth } from '../contracts/provider-instance.js';
import type { OcrBlock } from '../contracts/ocr.js';

/** Which Tesseract runs the recognition: the machine's `tesseract` command, or tesseract.js (WebAssembly). */
export type EngineKind = 'native' | 'wasm';

export type PageLayout = 'auto' | 'block';

/** Tesseract's page segmentation mode for each layout. */
export const PSM_FOR_LAYOUT: Record<PageLayout, string> = { auto: '3', block: '6' };

/** One Tesseract behind a worker pool: recognises a page with automatic page segmentation (columns, blocks). */
export interface OcrEngine {
  readonly kind: EngineKind;
  readonly workers: number;
  /**
   * Blocks (Tesseract paragraphs) in Tesseract's order, boxes in `image`'s pixels. `layout` is Tesseract's
   * page segmentation: `auto` finds columns and blocks (PSM 3), `block` reads the page as one block of
   * lines (PSM 6), which suits receipts and tables whose narrow columns `auto` misreads.
   */
  recognize(image: GrayImage, signal: AbortSignal, layout?: PageLayout): Promise<OcrBlock[]>;
  warm(): Promise<void>;
  status(): EngineStatus;
  /** Pages waiting for and running on a worker, for /metrics. */
  queues(): QueueDepth[];
  /** Calls `listener` each time a reading starts waiting for a worker; returns the unsubscribe. */
  onPageWaiting(listener: () => void): () => void;
  close(): Promise<void>;
}
