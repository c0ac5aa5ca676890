import type { GrayImage } from '../../_shared/media/decode-image.js';
import { boxBlur, downsample, maxFilter, resizeSmooth } from './gray-filters.js';
import { otsuThreshold } from './otsu-threshold.js';

/**
 * Flattens uneven lighting and stretches contrast: estimates the paper's brightness everywhere (a max
 * filter wider than any stroke removes the ink, a blur smooths it), divides the page by it so paper
 * becomes white, then maps the typical ink level to black. A clean page comes out unchanged.
 */
export function normaliseBackground(image: GrayImage): GrayImage {
  const factor = image.width * image.height > 400_000 ? 4 : 2;
  const small = downsample(image, factor);
  // A window of ~24 px at full resolution covers the strokes of text up to ~60 px tall.
  const radius = Math.max(2, Math.round(12 / factor));
  const background = resizeSmooth(boxBlur(maxFilter(small, radius), radius * 2), image.width, image.height);
  const divided = new Uint8Array(image.data.length);
  for (let i = 0; i < divided.length; i++) {
    const bg = Math.max(1, background.data[i]);
    divided[i] = Math.min(255, Math.round((image.data[i] * 255) / bg));
  }
  // Ink level: the mean of the pixels Otsu calls ink, so low-contrast print becomes black.
  const threshold = otsuThreshold(divided);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < divided.length; i++) {
    if (divided[i] <= threshold) {
      sum += divided[i];
      count++;
    }
  }
  const ink = count ? sum / count : 0;
  if (ink < 8 || count === 0) return { width: image.width, height: image.height, data: divided };
  const range = 255 - ink;
  for (let i = 0; i < divided.length; i++) {
    divided[i] = Math.max(0, Math.min(255, Math.round(((divided[i] - ink) * 255) / range)));
  }
  return { width: image.width, height: image.height, data: divided };
}
