import type { ProviderFactory, ProviderInstance } from '../types.js';
import { ocrDocument } from './ocr-document.js';
import { parseTesseractOptions } from './tesseract-options.js';
import { TesseractWorkerPool } from './worker-pool.js';

/**
 * The offline OCR engine: Tesseract (WebAssembly, English LSTM model from disk) behind a worker pool,
 * with accuracy preprocessing, plus PDF text layers and rendering. Never fetches anything.
 */
export const createTesseractProvider: ProviderFactory = (context): ProviderInstance => {
  const options = parseTesseractOptions(context.options);
  const pool = new TesseractWorkerPool(options.workers);
  return {
    id: context.id,
    type: context.options.type,
    capabilities: { ocr: { ocr: (request) => ocrDocument(pool, options, request) } },
    warm: async () => {
      context.logger.info(`OCR engine: starting ${options.workers} Tesseract worker(s)`);
      await pool.warm();
      context.logger.info('OCR engine: ready');
    },
    status: () => pool.status(),
    queues: () => pool.queues(),
    close: () => pool.close(),
  };
};
