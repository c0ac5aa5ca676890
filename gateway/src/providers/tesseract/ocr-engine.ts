import type { GrayImage } from '../../media/image/decode-image.js';
import type { EngineStatus, QueueDepth } from '../contracts/provider-instance.js';
import type { OcrBlock } from '../contracts/ocr.js';

/** Which Tesseract runs the recognition: the machine's `tesseract` command, or tesseract.js (WebAssembly). */
export type EngineKind = 'native' | 'wasm';

export type PageLayout = 'auto' | 'block';

/** Tesseract's page segmentation mode for each layout. */
export const PSM_FOR_LAYOUT: Record<PageLayout, string> = { auto: '3', block: '6' };

/** What Tesseract's orientation and script detection (`--psm 0`) found on a page. */
export interface ScriptGuess {
  /** The script's name as osd.traineddata gives it: Latin, Cyrillic, Greek, Arabic, Han, Japanese, ... */
  script: string;
  /** Tesseract's own score (about 0 to 20; under 1 is a guess). */
  confidence: number;
}

/** One Tesseract behind a worker pool: recognises a page with automatic page segmentation (columns, blocks). */
export interface OcrEngine {
  readonly kind: EngineKind;
  readonly workers: number;
  /**
   * Blocks (Tesseract paragraphs) in Tesseract's order, boxes in `image`'s pixels. `layout` is Tesseract's
   * page segmentation: `auto` finds columns and blocks (PSM 3), `block` reads the page as one block of
   * lines (PSM 6), which suits receipts and tables whose narrow columns `auto` misreads. `languages`:
   * Tesseract's codes of the models to read with (default English), each one the engine has.
   */
  recognize(
    image: GrayImage,
    signal: AbortSignal,
    layout?: PageLayout,
    languages?: readonly string[],
  ): Promise<OcrBlock[]>;
  /** The page's script, by Tesseract's orientation and script detection; undefined where it cannot tell. */
  detectScript(image: GrayImage, signal: AbortSignal): Promise<ScriptGuess | undefined>;
  /** Tesseract's codes of the languages the engine has data for (`osd`, script detection, among them). */
  languages(): Promise<readonly string[]>;
  /** The same, once the engine has found them (it has started); undefined before. */
  knownLanguages(): readonly string[] | undefined;
  warm(): Promise<void>;
  status(): EngineStatus;
  /** Pages waiting for and running on a worker, for /metrics. */
  queues(): QueueDepth[];
  /** Calls `listener` each time a reading starts waiting for a worker; returns the unsubscribe. */
  onPageWaiting(listener: () => void): () => void;
  close(): Promise<void>;
}
