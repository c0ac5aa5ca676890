import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import type { GrayImage } from '../../media/image/decode-image.js';
import { encodeGrayPng } from './encode-gray-png.js';
import { PSM_FOR_LAYOUT, type OcrEngine } from './ocr-engine.js';
import { toOcrBlocks } from './to-ocr-blocks.js';
import { WorkerPool } from './worker-pool.js';
import type { TessdataFolder } from './tessdata-folder.js';

/** The English LSTM model shipped in @tesseract.js-data/eng: without a local path tesseract.js goes to a CDN. */
function englishLangPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

async function startWorker(tessdata: TessdataFolder | undefined): Promise<Worker> {
  // Each job sets the page segmentation: tesseract.js' default (one uniform block) reads across columns.
  // The folder's models may be gzipped or not: tesseract.js tells by their first bytes.
  if (tessdata) await tessdata.languages();
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: tessdata?.path ?? englishLangPath(),
    gzip: !tessdata,
    cacheMethod: 'none',
  });
  return worker;
}

/** Encodes a page as the PNG tesseract.js reads (by default here, with encodeGrayPng). */
export type PngEncoder = (image: GrayImage, signal: AbortSignal) => Promise<Uint8Array>;

/**
 * tesseract.js (WebAssembly): the portable engine, used where the machine has no `tesseract` command.
 * With `tessdata` it reads every language installed there (a worker loads a model the first time a
 * page needs it); without, English only. It has no script detection.
 */
export function createWasmEngine(
  workers: number,
  encode: PngEncoder = async (image) => encodeGrayPng(image),
  tessdata?: TessdataFolder,
): OcrEngine {
  const pool = new WorkerPool<Worker>(workers, { start: () => startWorker(tessdata), stop: (w) => w.terminate() });
  const reading = new WeakMap<Worker, string>();
  let known = ['eng'];
  return {
    kind: 'wasm',
    workers,
    recognize: async (image, signal, layout = 'auto', languages = ['eng']) => {
      const encoded = await encode(image, signal);
      const png = Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
      const models = languages.join('+');
      const result = await pool.run(signal, async (worker) => {
        if ((reading.get(worker) ?? 'eng') !== models) {
          await worker.reinitialize(models, OEM.LSTM_ONLY);
          reading.set(worker, models);
        }
        await worker.setParameters({ tessedit_pageseg_mode: PSM_FOR_LAYOUT[layout] as PSM });
        return worker.recognize(png, {}, { blocks: true, text: false });
      });
      return toOcrBlocks(result.data.blocks);
    },
    detectScript: async () => undefined,
    languages: async () => (tessdata ? (known = await tessdata.languages()) : known),
    knownLanguages: () => known,
    warm: () => pool.warm(),
    status: () => pool.status(),
    queues: () => pool.queues(),
    onPageWaiting: (listener) => pool.onJobWaiting(listener),
    close: () => pool.close(),
  };
}
