import type { GrayImage } from '../../../media/image/decode-image.js';

/**
 * Robust estimate of pixel noise (gray levels): the median absolute difference between a pixel and
 * its 3×3 mean, scaled to a Gaussian sigma, over a grid of every other row and column. Glyph edges are
 * a small minority, so the median sees paper and ink interiors, where a clean scan differs by ~0.
 */
export function estimateNoise(image: GrayImage): number {
  const { width, height, data } = image;
  const histogram = new Uint32Array(256);
  let samples = 0;
  for (let y = 1; y < height - 1; y += 2) {
    for (let x = 1; x < width - 1; x += 2) {
      const i = y * width + x;
      const sum =
        data[i - width - 1] +
        data[i - width] +
        data[i - width + 1] +
        data[i - 1] +
        data[i] +
        data[i + 1] +
        data[i + width - 1] +
        data[i + width] +
        data[i + width + 1];
      histogram[Math.min(255, Math.round(Math.abs(data[i] - sum / 9)))]++;
      samples++;
    }
  }
  let cumulative = 0;
  for (let v = 0; v < 256; v++) {
    cumulative += histogram[v];
    // The 3×3 mean includes the pixel itself, hence the 9/8.
    if (cumulative >= samples / 2) return v * 1.4826 * (9 / 8);
  }
  return 0;
}
