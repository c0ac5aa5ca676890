import type { GrayImage } from '../../../media/image/decode-image.js';
import { measureSkew } from './estimate-skew.js';
import { binarize, otsuThreshold } from './otsu-threshold.js';

/** Skew (degrees) from which a page is straightened before its first reading, when the measure is clear. */
const CLEAR_ANGLE = 1;
/** How much sharper the profile must be at the angle than level (see SkewMeasure.sharpness). */
const CLEAR_SHARPNESS = 1.3;
/** Pages above this many pixels are measured on every other row and column (a quarter of the work). */
const HALVE_ABOVE_PIXELS = 1_000_000;

/** Every other row and column of `image`. */
function halve(image: GrayImage): GrayImage {
  const width = image.width >> 1;
  const height = image.height >> 1;
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data[y * width + x] = image.data[2 * y * image.width + 2 * x];
  return { width, height, data };
}

/** Below this line contrast (see SkewMeasure.lineContrast) the raw pixels show no text lines: grain, or text too faint to split. */
const FLAT_PROFILE = 1.2;

export interface LineProfile {
  /**
   * The page's skew in degrees when its pixels show it clearly (text lines that come into line at one
   * angle, at least CLEAR_ANGLE from level), else undefined.
   */
  clearSkew: number | undefined;
  /** Whether rows of ink alternate with blank rows, as text lines do (false on grain and on very faint text). */
  lines: boolean;
}

/**
 * What the page's pixels show before any reading, from one projection profile on a (halved) copy: a
 * clear skew (such a page is straightened first and read once, instead of read as it comes and again
 * straightened), and whether there are text lines at all (a page without may be grain, checked before reading).
 */
export function lineProfile(image: GrayImage): LineProfile {
  const small = image.width * image.height > HALVE_ABOVE_PIXELS ? halve(image) : image;
  const { angle, sharpness, lineContrast } = measureSkew(
    binarize(small.data, otsuThreshold(small.data)),
    small.width,
    small.height,
  );
  return {
    clearSkew: Math.abs(angle) >= CLEAR_ANGLE && sharpness >= CLEAR_SHARPNESS ? angle : undefined,
    lines: lineContrast >= FLAT_PROFILE,
  };
}
