import type { GrayImage } from '../../../media/image/decode-image.js';

/** The gray level below which `fraction` of the histogram's pixels lie. */
function percentile(histogram: Uint32Array, total: number, fraction: number): number {
  for (let v = 0, seen = 0; v < histogram.length; v++) {
    seen += histogram[v];
    if (seen >= total * fraction) return v;
  }
  return histogram.length - 1;
}

/**
 * Estimates the blur of a page as the sigma (pixels) of a Gaussian that would give its edges their
 * steepness: a step of height C blurred by sigma has a steepest slope of C / (sigma·√(2π)). The
 * slope is the 99.5th percentile of the central-difference gradient (the page's sharpest edges), C
 * the gap between the ink (1st percentile) and the paper (median). Sharp or anti-aliased print gives
 * well under 1, a defocused scan more.
 */
export function estimateBlur(image: GrayImage): number {
  const { width, height, data } = image;
  const levels = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) levels[data[i]]++;
  const contrast = percentile(levels, data.length, 0.5) - percentile(levels, data.length, 0.01);
  if (contrast < 32) return 0;
  const slopes = new Uint32Array(256);
  let samples = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      // The larger central difference, halved and rounded half up, in integers.
      const dx = Math.abs(data[i + 1] - data[i - 1]);
      const dy = Math.abs(data[i + width] - data[i - width]);
      slopes[((dx > dy ? dx : dy) + 1) >> 1]++;
      samples++;
    }
  }
  const slope = percentile(slopes, samples, 0.995);
  return slope > 0 ? contrast / (slope * Math.sqrt(2 * Math.PI)) : 0;
}
