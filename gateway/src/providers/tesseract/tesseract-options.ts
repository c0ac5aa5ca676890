import { availableParallelism } from 'node:os';
import type { ProviderOptions } from '../types.js';

export interface TesseractOptions {
  /** Recognition workers (each a WebAssembly Tesseract instance, ~30 MB). */
  workers: number;
  /** Most pages one request may process. */
  maxPages: number;
  /** Most pixels per page image (decoded or rendered). */
  maxPixels: number;
  /** Resolution at which PDF pages are rendered (and text-layer boxes expressed). */
  renderDpi: number;
  /** Accuracy preprocessing before recognition; off only for comparisons. */
  preprocess: boolean;
}

function positiveNumber(options: ProviderOptions, key: string, fallback: number, integer: boolean): number {
  const value = options[key];
  if (value === undefined || value === null) return fallback;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
    throw new Error(`Tesseract provider option ${key} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}.`);
  }
  return number;
}

/** Reads the provider's config entry, with the defaults: cores (at most 4) workers, 50 pages, 40 MP, 200 DPI. */
export function parseTesseractOptions(options: ProviderOptions): TesseractOptions {
  return {
    workers: positiveNumber(options, 'workers', Math.min(4, Math.max(1, availableParallelism())), true),
    maxPages: positiveNumber(options, 'max_pages', 50, true),
    maxPixels: positiveNumber(options, 'max_pixels', 40_000_000, true),
    renderDpi: positiveNumber(options, 'render_dpi', 200, false),
    preprocess: options.preprocess !== false,
  };
}
