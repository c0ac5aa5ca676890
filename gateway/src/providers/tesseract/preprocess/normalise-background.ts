import type { GrayImage } from '../../../media/image/decode-image.js';
import { boxBlur, downsample, maxFilter, resizeSmooth } from './gray-filters.js';

/**
 * Flattens uneven lighting: estimates the paper's brightness everywhere (a max filter wider than any
 * stroke removes the ink, a blur smooths it) and divides the page by it so paper becomes white. A
 * clean page comes out unchanged.
 */
export function normaliseBackground(image: GrayImage): GrayImage {
  const factor = image.width * image.height > 400_000 ? 4 : 2;
  const small = downsample(image, factor);
  // A window of ~24 px at full resolution covers the strokes of text up to ~60 px tall.
  const radius = Math.max(2, Math.round(12 / factor));
  const smallBackground = boxBlur(maxFilter(small, radius), radius * 2);
  if (smallBackground.data.every((v) => v === 255)) {
    // Evenly white paper: dividing would change nothing.
    return { width: image.width, height: image.height, data: Uint8Array.from(image.data) };
  }
  const background = resizeSmooth(smallBackground, image.width, image.height);
  const divided = new Uint8Array(image.data.length);
  for (let i = 0; i < divided.length; i++) {
    const bg = Math.max(1, background.data[i]);
    divided[i] = Math.min(255, Math.round((image.data[i] * 255) / bg));
  }
  return { width: image.width, height: image.height, data: divided };
}
