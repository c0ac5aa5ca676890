import type { OcrEngine } from '../../src/providers/tesseract/ocr-engine.js';

/**
 * `inner` as another OCR engine whose readings go through `recognize` (to count, record or time
 * them); closing it leaves `inner` open (the test file closes that once).
 */
export function observedEngine(inner: OcrEngine, recognize: OcrEngine['recognize']): OcrEngine {
  return {
    get kind() {
      return inner.kind;
    },
    workers: inner.workers,
    recognize,
    detectScript: (image, signal) => inner.detectScript(image, signal),
    languages: () => inner.languages(),
    knownLanguages: () => inner.knownLanguages(),
    warm: () => inner.warm(),
    status: () => inner.status(),
    queues: () => inner.queues(),
    onPageWaiting: (listener) => inner.onPageWaiting(listener),
    close: async () => undefined,
  };
}
