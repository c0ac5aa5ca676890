import type { GrayImage } from '../_shared/media/decode-image.js';
import { blocksText } from '../_shared/pdf/layout-from-words.js';
import type { OcrPage } from '../types.js';
import { encodeGrayPng } from './encode-gray-png.js';
import { identityTransform } from './preprocess/page-transform.js';
import { preprocessPage } from './preprocess/preprocess-page.js';
import { toOcrBlocks } from './to-ocr-blocks.js';
import type { TesseractWorkerPool } from './worker-pool.js';

export interface RecognizeOptions {
  preprocess: boolean;
  maxPixels: number;
  signal: AbortSignal;
}

/** Recognises one page image; boxes are in `image`'s pixels. */
export async function recognizeGray(
  pool: TesseractWorkerPool,
  image: GrayImage,
  index: number,
  options: RecognizeOptions,
): Promise<OcrPage> {
  const prepared = options.preprocess
    ? await preprocessPage(image, { maxPixels: options.maxPixels })
    : { image, transform: identityTransform(image.width, image.height), steps: [] };
  const png = encodeGrayPng(prepared.image);
  const result = await pool.run(options.signal, (worker) => worker.recognize(png, {}, { blocks: true, text: false }));
  const blocks = toOcrBlocks(result.data.blocks, prepared.transform);
  return { index, width: image.width, height: image.height, text: blocksText(blocks), blocks, source: 'ocr' };
}
