import type { GrayImage } from '../../media/image/decode-image.js';
import { encodeGrayPng } from './encode-gray-png.js';
import { distinctInk } from './preprocess/distinct-ink.js';
import { estimateNoise } from './preprocess/estimate-noise.js';
import { lineProfile } from './preprocess/line-profile.js';
import { findBlankCut } from './recognize-in-bands.js';
import {
  cleanedPage,
  cleanPage,
  grainSized,
  NOISY,
  preprocessPage,
  type CleanedPage,
  type CleanedPixels,
  type PreprocessedPage,
  type PreprocessOptions,
} from './preprocess/preprocess-page.js';

/** What a page's pixels say before its first reading (see recognizeGray). */
export type PageSurvey =
  /** No glyph-shaped mark clearly darker than the grain: nothing to read. */
  | { kind: 'blank' }
  /** Grain with a few words standing out of it: those words, on clean paper, are what to read. */
  | { kind: 'distinct'; image: GrayImage }
  | {
      kind: 'page';
      noisy: boolean;
      /** The page cleaned, when the survey needed it. */
      cleaned?: CleanedPixels;
      /** The page prepared for its first reading, when it shows a clear skew or is noisy. */
      preparedFirst?: PreprocessedPage;
    };

/**
 * Surveys a page before its first reading. A page whose raw pixels show no text lines is grain, text
 * too faint to split, or a few words amid grain: one with no glyph-shaped mark clearly darker than its
 * grain is not read at all (a reading would find nothing, slowly), and one whose marks stay grain-sized
 * once cleaned is read as the few words that stand out of it. A page with a clear skew, or whose grain
 * measures noisy, is prepared (see preprocessPage) for its first reading.
 */
export async function surveyPage(
  image: GrayImage,
  options: { preprocess: boolean; maxPixels: number },
): Promise<PageSurvey> {
  const profile = options.preprocess ? lineProfile(image) : undefined;
  let cleaned: CleanedPage | undefined;
  if (profile && !profile.lines) {
    const distinct = distinctInk(image);
    if (!distinct.words) return { kind: 'blank' };
    cleaned = await cleanPage(image);
    if (grainSized(cleaned)) return { kind: 'distinct', image: distinct.image };
  }
  const noisy = options.preprocess && estimateNoise(image) > NOISY;
  if (noisy) cleaned ??= await cleanPage(image);
  const preparedFirst =
    profile?.clearSkew !== undefined || noisy
      ? await preprocessPage(image, { maxPixels: options.maxPixels }, cleaned)
      : undefined;
  return {
    kind: 'page',
    noisy,
    cleaned: cleaned && { image: cleaned.image, binary: cleaned.binary, steps: cleaned.steps },
    preparedFirst,
  };
}

/** The pixel work of recognising a page, run where its owner chooses (on the event loop in unit tests, on the work pool in the gateway). */
export interface PagePixels {
  survey(image: GrayImage, options: { preprocess: boolean; maxPixels: number }): Promise<PageSurvey>;
  preprocess(image: GrayImage, options: PreprocessOptions, cleaned?: CleanedPixels): Promise<PreprocessedPage>;
  /** Where a large page may be cut in two for two workers (see findBlankCut). */
  blankCut(image: GrayImage): Promise<{ cut: number; gap: number } | undefined>;
  /** The page as the PNG tesseract.js reads (see encodeGrayPng). */
  png(image: GrayImage): Promise<Uint8Array>;
}

/** The pixel work in this thread. */
export const inThreadPixels: PagePixels = {
  survey: surveyPage,
  preprocess: (image, options, cleaned) => preprocessPage(image, options, cleaned && cleanedPage(cleaned)),
  blankCut: async (image) => findBlankCut(image),
  png: async (image) => encodeGrayPng(image),
};
