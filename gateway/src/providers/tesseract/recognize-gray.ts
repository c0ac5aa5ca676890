import type { GrayImage } from '../_shared/media/decode-image.js';
import { blocksText } from '../_shared/pdf/layout-from-words.js';
import { orderBlocks } from '../_shared/pdf/reading-order.js';
import type { OcrBlock, OcrPage } from '../types.js';
import { dropDoubtfulWords } from './drop-doubtful-words.js';
import type { OcrEngine } from './ocr-engine.js';
import { pageConfidence } from './page-confidence.js';
import { blocksToOriginal, identityTransform, type PageTransform } from './preprocess/page-transform.js';
import { preprocessPage } from './preprocess/preprocess-page.js';

export interface RecognizeOptions {
  preprocess: boolean;
  maxPixels: number;
  signal: AbortSignal;
}

/** A reading at or above this confidence is kept; below it, the page is also read the other way. */
const CONFIDENT = 0.85;

interface Reading {
  image: GrayImage;
  transform: PageTransform;
  blocks: OcrBlock[];
  confidence: number;
}

async function read(engine: OcrEngine, image: GrayImage, transform: PageTransform, signal: AbortSignal): Promise<Reading> {
  const blocks = await engine.recognize(image, signal);
  return { image, transform, blocks, confidence: pageConfidence(blocks) };
}

/**
 * Recognises one page image; boxes are in `image`'s pixels. Preprocessing is chosen by measured
 * confidence: a page that needs straightening or has table rules is read preprocessed; otherwise it is
 * read as it is (the engine binarises on its own). When that reading is unsure and preprocessing
 * changes the page, the page is read the other way too and the more confident reading is kept.
 * Blocks are ordered for reading on the straightened page, then mapped back.
 */
export async function recognizeGray(engine: OcrEngine, image: GrayImage, index: number, options: RecognizeOptions): Promise<OcrPage> {
  const identity = identityTransform(image.width, image.height);
  const prepared = options.preprocess ? await preprocessPage(image, { maxPixels: options.maxPixels }) : undefined;
  const changed = prepared !== undefined && prepared.steps.length > 0;
  const geometric = changed && prepared.steps.some((step) => step.startsWith('deskew') || step.startsWith('rules'));
  let best = geometric
    ? await read(engine, prepared.image, prepared.transform, options.signal)
    : await read(engine, image, identity, options.signal);
  if (changed && best.confidence < CONFIDENT) {
    const other = geometric
      ? await read(engine, image, identity, options.signal)
      : await read(engine, prepared.image, prepared.transform, options.signal);
    if (other.confidence > best.confidence) best = other;
  }
  const ordered = orderBlocks(dropDoubtfulWords(best.blocks), best.image);
  const blocks = blocksToOriginal(best.transform, ordered);
  return {
    index,
    width: image.width,
    height: image.height,
    text: blocksText(blocks),
    blocks,
    source: 'ocr',
    confidence: Math.round(pageConfidence(blocks) * 1000) / 1000,
  };
}
