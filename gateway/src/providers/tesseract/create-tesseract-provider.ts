import type { ProviderFactory, ProviderInstance } from '../contracts/provider-instance.js';
import { rethrowAsProviderError } from '../_shared/provider-error.js';

import { parseTesseractOptions } from './tesseract-options.js';
import { createEngine, tessdataFolderIn } from './create-engine.js';
import { NativeTesseractCommand } from './native-engine.js';
import { ocrDocument, pooledPagePixels } from './ocr-document.js';
import { PagesInFlight } from './recognize-gray.js';
import { MediaDecoder } from '../../media/media-decoder.js';
import { defaultWorkPoolOptions, WorkPool } from '../../media/work-pool/work-pool.js';

/**
 * The offline OCR engine: Tesseract (the machine's `tesseract` command when it has one, else tesseract.js
 * with its English LSTM model from disk) behind a worker pool, with preprocessing chosen by confidence,
 * reading order, plus PDF text layers and rendering. Never fetches anything.
 */
export const createTesseractProvider: ProviderFactory = (context): ProviderInstance => {
  const options = parseTesseractOptions(context.options);
  // Outside a gateway (unit tests, the OCR benchmark) the provider decodes on threads of its own.
  const media = context.media ?? new MediaDecoder(new WorkPool(defaultWorkPoolOptions()));
  const command = new NativeTesseractCommand(options.nativeCommand);
  const tessdata = tessdataFolderIn(context.dataDir, command);
  const engine = createEngine(
    options,
    (image, signal) => pooledPagePixels(media.pool, signal).png(image),
    tessdata,
    command,
  );
  const reading = { ...options, pagesInFlight: new PagesInFlight() };
  return {
    id: context.id,
    type: context.options.type,
    capabilities: {
      ocr: {
        ocr: (request) => ocrDocument(media, engine, reading, request, context.tracer).catch(rethrowAsProviderError),
        // Read from the sources on each look, so a model downloaded a moment ago is listed.
        languages: () => {
          const sources = tessdata.sources();
          return sources && [...sources.keys()].filter((language) => language !== 'osd').sort();
        },
        languageSources: () => tessdata.sources(),
      },
    },
    warm: async () => {
      await engine.warm();
      context.logger.info(
        `OCR engine: ${options.workers} ${engine.kind === 'native' ? 'native tesseract' : 'tesseract.js'} worker(s) ready`,
      );
    },
    status: () => engine.status(),
    queues: () => engine.queues(),
    close: async () => {
      await engine.close();
      await tessdata.close();
      if (media !== context.media) await media.pool.close();
    },
  };
};
