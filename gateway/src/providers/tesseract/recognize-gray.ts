import type { GrayImage } from '../_shared/media/decode-image.js';
import { median } from '../_shared/pdf/box-geometry.js';
import { blocksText } from '../_shared/pdf/layout-from-words.js';
import { orderBlocks } from '../_shared/pdf/reading-order.js';
import type { OcrBlock, OcrPage } from '../types.js';
import { dropDoubtfulWords } from './drop-doubtful-words.js';
import type { OcrEngine, PageLayout } from './ocr-engine.js';
import { pageConfidence } from './page-confidence.js';
import { blocksToOriginal, identityTransform, type PageTransform } from './preprocess/page-transform.js';
import { preprocessPage } from './preprocess/preprocess-page.js';

export interface RecognizeOptions {
  preprocess: boolean;
  maxPixels: number;
  signal: AbortSignal;
}

/** A reading at or above this confidence is kept; below it, the page is also read other ways. */
const CONFIDENT = 0.85;

interface Reading {
  image: GrayImage;
  transform: PageTransform;
  blocks: OcrBlock[];
  confidence: number;
}

/**
 * A "line" several times taller than the page's lines is a column of short items (prices on a receipt)
 * that automatic segmentation took for vertical text; its words are garbage.
 */
function hasStrayTallLines(blocks: OcrBlock[]): boolean {
  const lines = blocks.flatMap((b) => b.lines);
  const height = median(lines.map((l) => l.bbox[3] - l.bbox[1]));
  return lines.some((l) => l.words.length >= 3 && l.bbox[3] - l.bbox[1] > 2.5 * height);
}

/**
 * Recognises one page image; boxes are in `image`'s pixels. The page is read first with Tesseract's own
 * layout analysis, as it is (Tesseract binarises on its own) or straightened when it is skewed. When that
 * reading is unsure (low confidence, or columns misread as vertical text), the page is also read the
 * other way (preprocessed or not) and as one block of lines, and the most confident reading is kept.
 * Blocks are ordered for reading on the straightened page, then mapped back.
 */
export async function recognizeGray(engine: OcrEngine, image: GrayImage, index: number, options: RecognizeOptions): Promise<OcrPage> {
  const read = async (page: GrayImage, transform: PageTransform, layout: PageLayout): Promise<Reading> => {
    const blocks = await engine.recognize(page, options.signal, layout);
    return { image: page, transform, blocks, confidence: pageConfidence(blocks) };
  };
  const original = { image, transform: identityTransform(image.width, image.height) };
  const prepared = options.preprocess ? await preprocessPage(image, { maxPixels: options.maxPixels }) : undefined;
  const changed = prepared !== undefined && prepared.steps.length > 0;
  const skewed = changed && prepared.steps.some((step) => step.startsWith('deskew'));
  const [first, second] = skewed ? [prepared, original] : [original, changed ? prepared : undefined];

  let best = await read(first.image, first.transform, 'auto');
  if (best.confidence < CONFIDENT || hasStrayTallLines(best.blocks)) {
    const others = [second ? () => read(second.image, second.transform, 'auto') : undefined, () => read(first.image, first.transform, 'block')];
    for (const other of others) {
      if (!other) continue;
      const reading = await other();
      if (reading.confidence > best.confidence || (hasStrayTallLines(best.blocks) && !hasStrayTallLines(reading.blocks))) best = reading;
    }
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
    // The whole reading's confidence: dropping doubtful words does not make the page any more legible.
    confidence: Math.round(best.confidence * 1000) / 1000,
  };
}
