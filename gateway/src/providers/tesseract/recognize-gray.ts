import type { GrayImage } from '../../media/image/decode-image.js';
import { median } from '../../media/pdf/box-geometry.js';
import { blocksText } from '../../media/pdf/layout-from-words.js';
import { orderBlocks } from '../../media/pdf/reading-order.js';
import type { OcrBlock, OcrPage } from '../contracts/ocr.js';
import { dropDoubtfulWords } from './drop-doubtful-words.js';
import type { OcrEngine, PageLayout } from './ocr-engine.js';
import { lineSkew } from './line-skew.js';
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

/** Below this confidence a page is mostly noise or unreadable. */
const LEGIBLE = 0.6;
/** Skew (degrees, measured on the words) from which the straightened page is read as well. */
const SKEWED = 0.5;
/** How much less confident a straightened reading may be and still win (its rows and columns are straight). */
const STRAIGHT_BONUS = 0.03;

/**
 * Recognises one page image; boxes are in `image`'s pixels. The page is read as it is with Tesseract's
 * own layout analysis (Tesseract binarises on its own), so clean pages are read once. When the words
 * show the page is skewed, or the reading is unsure (low confidence, or a column misread as vertical
 * text), the page is preprocessed (deskewed, denoised, contrast, rules, upscaling: see preprocessPage)
 * and read again, then read as one block of lines if its layout looks misread; the most confident
 * reading is kept.
 * Blocks are ordered for reading on the (straightened) page, then mapped back.
 */
export async function recognizeGray(engine: OcrEngine, image: GrayImage, index: number, options: RecognizeOptions): Promise<OcrPage> {
  const read = async (page: GrayImage, transform: PageTransform, layout: PageLayout): Promise<Reading> => {
    const blocks = await engine.recognize(page, options.signal, layout);
    return { image: page, transform, blocks, confidence: pageConfidence(blocks) };
  };
  const unsure = (reading: Reading): boolean => reading.confidence < CONFIDENT || hasStrayTallLines(reading.blocks);

  let best = await read(image, identityTransform(image.width, image.height), 'auto');
  // Where the words cannot tell (short lines), the pixels can: preprocessing measures the skew.
  const skew = lineSkew(best.blocks);
  if (options.preprocess && (skew === undefined || Math.abs(skew) >= SKEWED || unsure(best))) {
    const prepared = await preprocessPage(image, { maxPixels: options.maxPixels });
    if (prepared.steps.length > 0 && (prepared.transform.rotation !== 0 || unsure(best))) {
      const reading = await read(prepared.image, prepared.transform, 'auto');
      const straightened = prepared.transform.rotation !== 0;
      if (reading.confidence + (straightened ? STRAIGHT_BONUS : 0) > best.confidence || (hasStrayTallLines(best.blocks) && !hasStrayTallLines(reading.blocks))) {
        best = reading;
      }
    }
  }
  // Reading as one block helps a page whose layout was misread, not one that is mostly noise (where it
  // is also very slow: every speck becomes a candidate character).
  if (hasStrayTallLines(best.blocks) || (best.confidence >= LEGIBLE && best.confidence < CONFIDENT)) {
    const reading = await read(best.image, best.transform, 'block');
    if (reading.confidence > best.confidence || (hasStrayTallLines(best.blocks) && !hasStrayTallLines(reading.blocks))) best = reading;
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
