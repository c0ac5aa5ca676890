import type { ProviderFactory, ProviderInstance } from '../contracts/provider-instance.js';
import { ocrDocument } from './ocr-document.js';
import { parseTesseractOptions } from './tesseract-options.js';
import { createEngine } from './create-engine.js';

/**
 * The offline OCR engine: Tesseract (the machine's `tesseract` command when it has one, else tesseract.js
 * with its English LSTM model from disk) behind a worker pool, with preprocessing chosen by confidence,
 * reading order, plus PDF text layers and rendering. Never fetches anything.
 */
export const createTesseractProvider: ProviderFactory = (context): ProviderInstance => {
  const options = parseTesseractOptions(context.options);
  const engine = createEngine(options);
  return {
    id: context.id,
    type: context.options.type,
    capabilities: { ocr: { ocr: (request) => ocrDocument(engine, options, request) } },
    warm: async () => {
      await engine.warm();
      context.logger.info(`OCR engine: ${options.workers} ${engine.kind === 'native' ? 'native tesseract' : 'tesseract.js'} worker(s) ready`);
    },
    status: () => engine.status(),
    queues: () => engine.queues(),
    close: () => engine.close(),
  };
};
