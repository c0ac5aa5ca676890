import type { GrayImage } from '../../_shared/media/decode-image.js';
import { boxBlur, downsample, maxFilter, resizeSmooth } from './gray-filters.js';
import { otsuThreshold } from './otsu-threshold.js';

/** Level of the darkest tenth of the ink above which a page counts as low-contrast and its levels are stretched. */
const LOW_CONTRAST_INK = 150;

/**
 * Flattens uneven lighting and stretches contrast: estimates the paper's brightness everywhere (a max
 * filter wider than any stroke removes the ink, a blur smooths it), divides the page by it so paper
 * becomes white, then, on low-contrast pages, maps the typical ink level to black. A clean page comes out unchanged.
 */
export function normaliseBackground(image: GrayImage): GrayImage {
  const factor = image.width * image.height > 400_000 ? 4 : 2;
  const small = downsample(image, factor);
  // A window of ~24 px at full resolution covers the strokes of text up to ~60 px tall.
  const radius = Math.max(2, Math.round(12 / factor));
  const smallBackground = boxBlur(maxFilter(small, radius), radius * 2);
  let divided: Uint8Array;
  if (smallBackground.data.every((v) => v === 255)) {
    // Evenly white paper: dividing would change nothing.
    divided = Uint8Array.from(image.data);
  } else {
    const background = resizeSmooth(smallBackground, image.width, image.height);
    divided = new Uint8Array(image.data.length);
    for (let i = 0; i < divided.length; i++) {
      const bg = Math.max(1, background.data[i]);
      divided[i] = Math.min(255, Math.round((image.data[i] * 255) / bg));
    }
  }
  // Ink level: the mean of the pixels Otsu calls ink, so low-contrast print becomes black. Pages
  // whose darkest ink is already dark are left alone: stretching blurred or JPEG text only thickens
  // its strokes (measured on the benchmark pages).
  const threshold = otsuThreshold(divided);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < divided.length; i++) histogram[divided[i]]++;
  let inkCount = 0;
  let inkSum = 0;
  for (let v = 0; v <= threshold; v++) {
    inkCount += histogram[v];
    inkSum += v * histogram[v];
  }
  let darkest = 0;
  for (let v = 0, seen = 0; v <= threshold; v++) {
    seen += histogram[v];
    if (seen >= inkCount * 0.1) {
      darkest = v;
      break;
    }
  }
  if (inkCount === 0 || darkest < LOW_CONTRAST_INK) return { width: image.width, height: image.height, data: divided };
  const ink = inkSum / inkCount;
  const range = 255 - ink;
  for (let i = 0; i < divided.length; i++) {
    divided[i] = Math.max(0, Math.min(255, Math.round(((divided[i] - ink) * 255) / range)));
  }
  return { width: image.width, height: image.height, data: divided };
}
