import type { GrayImage } from '../../../media/image/decode-image.js';
import { componentStats } from './component-stats.js';
import { despeckle, speckShare } from './despeckle.js';
import { estimateBlur } from './estimate-blur.js';
import { estimateNoise } from './estimate-noise.js';
import { estimateSkew } from './estimate-skew.js';
import { normaliseBackground } from './normalise-background.js';
import { binarize, otsuThreshold } from './otsu-threshold.js';
import { identityTransform, type PageTransform } from './page-transform.js';
import { removeRules } from './remove-rules.js';
import { rotateGray } from './rotate-gray.js';
import { sharpGray } from './sharp-gray.js';
import { stretchContrast } from './stretch-contrast.js';

export interface PreprocessOptions {
  /** Upper bound on the preprocessed image's pixels (upscaling stops there). */
  maxPixels: number;
  /**
   * Whether a first reading of the page found any word. When it found none, marks the size of grain are
   * not taken for small text (see PreprocessedPage.illegible).
   */
  textFound?: boolean;
  /**
   * The caller reads the result again only when it is straightened: a level page stops after the skew
   * measure (rules, upscaling and sharpening would only be measured for nothing).
   */
  onlyIfTurned?: boolean;
}

export interface PreprocessedPage {
  image: GrayImage;
  transform: PageTransform;
  /** What was done, for logs and the benchmark. */
  steps: string[];
  /**
   * The first reading found no word and, cleaned, the page's marks are still grain-sized (below
   * SMALL_GLYPH): nothing on it is text to read, so preprocessing stopped there. Enlarging such a page
   * (up to 9 times the pixels) only hands the recogniser more specks to try as letters, for seconds.
   */
  illegible?: boolean;
}

// Tuned on the benchmark's degraded pages (bench/ocr/run.ts); each step runs only when its measure
// says the page needs it, so clean pages reach the recogniser as they are.
/** Median glyph height (px) below which text is upscaled; the LSTM model reads best around 25-35 px. */
const SMALL_GLYPH = 9;
const TARGET_GLYPH = 16;
const MAX_UPSCALE = 3;
/** Skew below this (degrees) is left alone: rotating resamples every pixel and softens strokes. */
const MIN_SKEW = 0.3;
/**
 * Noise sigma (gray levels) above which specks are removed. JPEG-smoothed grain (the noisy invoices
 * measure ~7) reads better unfiltered.
 */
export const NOISY = 10;
/**
 * Estimated blur sigma (px, see estimateBlur) from which edges are sharpened. Sharp and anti-aliased
 * print measures 0.7-0.85, Gaussian blur of sigma 1.4 and more about 1.1; JPEG pages stay sharp, which
 * matters because sharpening their block edges costs characters.
 */
const BLURRED = 1;
/**
 * Share of speck pixels (see despeckle) from which a page whose grain measures low is despeckled all
 * the same: salt-and-pepper dots are too few to move the median noise estimate but each becomes a
 * candidate character. Clean renders and scans measure about 0.05 %, 0.3 % salt and pepper 0.18 %.
 */
const SPECKLED = 0.003;
/**
 * Paper-to-ink contrast, in noise sigmas, below which grain breaks strokes up and a 3×3 median is
 * worth the glyph detail it costs; above it only specks are removed (see despeckle).
 */
const GRAINY = 6;

/** The difference between the mean gray of paper and of ink, split at `threshold`. */
function inkContrast(data: Uint8Array, threshold: number): number {
  let ink = 0;
  let inkCount = 0;
  let paper = 0;
  for (const v of data) {
    if (v < threshold) {
      ink += v;
      inkCount++;
    } else paper += v;
  }
  const paperCount = data.length - inkCount;
  return inkCount && paperCount ? paper / paperCount - ink / inkCount : 0;
}

/** A page with its background evened out, noise removed and contrast stretched: preprocessing's first stage, as pixels. */
export interface CleanedPixels {
  image: GrayImage;
  /** `image` split at its Otsu threshold (1 = ink). */
  binary: Uint8Array;
  steps: string[];
}

export interface CleanedPage extends CleanedPixels {
  /** Median glyph height (px) of the cleaned marks, measured on first use. */
  glyph: () => number;
}

/** A cleaned page that measures its glyphs on first use (pixels travel between threads, a measure on demand cannot). */
export function cleanedPage(pixels: CleanedPixels): CleanedPage {
  let glyph: number | undefined;
  return {
    ...pixels,
    glyph: () => (glyph ??= componentStats(pixels.binary, pixels.image.width, pixels.image.height).medianGlyphHeight),
  };
}

/**
 * Evens out the background, removes noise and stretches low contrast. Denoising comes before
 * stretching: stretching first multiplies the noise along with the ink.
 */
export async function cleanPage(original: GrayImage): Promise<CleanedPage> {
  const steps: string[] = [];
  let image = normaliseBackground(original);
  const noise = estimateNoise(image);
  if (noise > NOISY) {
    const threshold = otsuThreshold(image.data);
    const contrast = inkContrast(image.data, threshold);
    if (contrast < GRAINY * noise) {
      image = await sharpGray(image, (p) => p.median(3));
      steps.push(`median3(noise=${noise.toFixed(1)}, contrast=${contrast.toFixed(0)})`);
    } else {
      image = despeckle(image, threshold);
      steps.push(`despeckle(noise=${noise.toFixed(1)}, contrast=${contrast.toFixed(0)})`);
    }
  } else {
    const threshold = otsuThreshold(image.data);
    const specks = speckShare(image, threshold);
    if (specks >= SPECKLED) {
      image = despeckle(image, threshold);
      steps.push(`despeckle(specks=${(specks * 100).toFixed(2)}%)`);
    }
  }
  image = stretchContrast(image);
  return cleanedPage({ image, binary: binarize(image.data, otsuThreshold(image.data)), steps });
}

/**
 * Whether the cleaned page's marks are grain-sized (below SMALL_GLYPH). Small text measures so too:
 * only with other evidence (no word read, no text lines in the pixels) does this make a page illegible.
 */
export const grainSized = (cleaned: CleanedPage): boolean => cleaned.glyph() < SMALL_GLYPH;

/**
 * Prepares a page for recognition: evens out the background, removes noise, stretches low contrast,
 * deskews, erases table rules, enlarges small text and sharpens blurred text, and records the
 * geometry so boxes can be mapped back. `cleaned` is the page's first stage when it was already run.
 */
export async function preprocessPage(
  original: GrayImage,
  options: PreprocessOptions,
  cleaned?: CleanedPage,
): Promise<PreprocessedPage> {
  const transform = identityTransform(original.width, original.height);
  const first = cleaned ?? (await cleanPage(original));
  const steps = [...first.steps];
  let image = first.image;
  let binary = first.binary;
  if (options.textFound === false && grainSized(first)) {
    // Measured before deskewing: on grain the skew is noise too, and turning the page costs time.
    steps.push(`illegible(glyph=${first.glyph()})`);
    return { image, transform, steps, illegible: true };
  }
  const skew = estimateSkew(binary, image.width, image.height);
  if (Math.abs(skew) < MIN_SKEW && options.onlyIfTurned) return { image, transform, steps };
  if (Math.abs(skew) >= MIN_SKEW) {
    image = rotateGray(image, -skew);
    transform.rotation = -skew;
    transform.rotatedWidth = image.width;
    transform.rotatedHeight = image.height;
    binary = binarize(image.data, otsuThreshold(image.data));
    steps.push(`deskew(${skew.toFixed(2)})`);
  }

  const stats = componentStats(binary, image.width, image.height);
  const glyph = stats.medianGlyphHeight || TARGET_GLYPH;
  const erased = removeRules(image, binary, Math.max(40, glyph * 5), Math.max(3, Math.round(glyph * 0.4)));
  if (erased > 0) steps.push(`rules(${erased}px)`);

  if (stats.medianGlyphHeight > 0 && stats.medianGlyphHeight < SMALL_GLYPH) {
    const wanted = Math.min(MAX_UPSCALE, TARGET_GLYPH / stats.medianGlyphHeight);
    const scale = Math.min(wanted, Math.sqrt(options.maxPixels / (image.width * image.height)));
    if (scale > 1.15) {
      image = await sharpGray(image, (p) =>
        p.resize(Math.round(image.width * scale), Math.round(image.height * scale), { kernel: 'lanczos3' }),
      );
      transform.scale = image.width / transform.rotatedWidth;
      steps.push(`upscale(${transform.scale.toFixed(2)}, glyph=${stats.medianGlyphHeight})`);
    }
  }
  const blur = estimateBlur(image);
  if (blur >= BLURRED) {
    // Unsharp mask on edges only (m1: 0 leaves flat paper and its grain alone).
    image = await sharpGray(image, (p) => p.sharpen({ sigma: 1.5, m1: 0, m2: 3 }));
    steps.push(`sharpen(blur=${blur.toFixed(2)})`);
  }
  return { image, transform, steps };
}
