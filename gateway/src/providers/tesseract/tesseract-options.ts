import { availableParallelism } from 'node:os';
import type { ProviderOptions } from '../contracts/provider-instance.js';
import type { EngineKind } from './ocr-engine.js';

export interface TesseractOptions {
  /** `auto` uses the machine's `tesseract` command when it has one, else tesseract.js. */
  engine: EngineKind | 'auto';
  /** The native command's name or path. */
  nativeCommand: string;
  /** Longest one page may take in the native command before it is killed. */
  pageTimeoutMs: number;
  /** Recognition workers: native processes, or WebAssembly Tesseract instances (~30 MB each). */
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
    throw new Error(
      `Tesseract provider option ${key} must be a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

function engineKind(value: unknown): TesseractOptions['engine'] {
  if (value === undefined || value === null) return 'auto';
  if (value === 'auto' || value === 'native' || value === 'wasm') return value;
  throw new Error(`Tesseract provider option engine must be "auto", "native" or "wasm", got ${JSON.stringify(value)}.`);
}

/** Reads the provider's config entry, with the defaults: auto engine, one worker per core (at most 4), 50 pages, 40 MP, 200 DPI. */
export function parseTesseractOptions(options: ProviderOptions): TesseractOptions {
  const command = options.tesseract_command;
  if (command !== undefined && (typeof command !== 'string' || command.trim() === '')) {
    throw new Error(
      `Tesseract provider option tesseract_command must be a command name or path, got ${JSON.stringify(command)}.`,
    );
  }
  return {
    engine: engineKind(options.engine),
    nativeCommand: typeof command === 'string' ? command : 'tesseract',
    pageTimeoutMs: positiveNumber(options, 'page_timeout_ms', 120_000, true),
    workers: positiveNumber(options, 'workers', Math.min(4, Math.max(1, availableParallelism())), true),
    maxPages: positiveNumber(options, 'max_pages', 50, true),
    maxPixels: positiveNumber(options, 'max_pixels', 40_000_000, true),
    renderDpi: positiveNumber(options, 'render_dpi', 200, false),
    preprocess: options.preprocess !== false,
  };
}
