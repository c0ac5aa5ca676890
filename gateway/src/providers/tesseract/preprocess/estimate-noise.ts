import type { GrayImage } from '../../_shared/media/decode-image.js';
import { boxBlur } from './gray-filters.js';

/**
 * Robust estimate of pixel noise (gray levels): the median absolute difference between each pixel and
 * its 3×3 mean, scaled to a Gaussian sigma. Edges of glyphs are a small minority, so the median sees
 * only paper and ink interiors, where a clean scan differs from its neighbours by ~0.
 */
export function estimateNoise(image: GrayImage): number {
  const blurred = boxBlur(image, 1);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < image.data.length; i++) histogram[Math.abs(image.data[i] - blurred.data[i])]++;
  const half = image.data.length / 2;
  let cumulative = 0;
  for (let v = 0; v < 256; v++) {
    cumulative += histogram[v];
    // The 3×3 mean includes the pixel itself, hence the 9/8.
    if (cumulative >= half) return v * 1.4826 * (9 / 8);
  }
  return 0;
}
