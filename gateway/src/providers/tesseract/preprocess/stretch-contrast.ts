import type { GrayImage } from '../../../media/image/decode-image.js';
import { otsuThreshold } from './otsu-threshold.js';

/** Level of the darkest tenth of the ink above which a page counts as low-contrast and its levels are stretched. */
const LOW_CONTRAST_INK = 150;

/**
 * On low-contrast pages, maps the typical ink level (the mean of the pixels Otsu calls ink) to black
 * and the typical paper level to white. Pages whose darkest ink is already dark are returned as they are: stretching
 * blurred or JPEG text only thickens its strokes (measured on the benchmark pages). Run it after
 * denoising: stretching first multiplies the noise along with the contrast.
 */
export function stretchContrast(image: GrayImage): GrayImage {
  const { data } = image;
  const threshold = otsuThreshold(data);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) histogram[data[i]]++;
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
  if (inkCount === 0 || darkest < LOW_CONTRAST_INK) return image;
  const ink = inkSum / inkCount;
  // Paper level: the median of the pixels Otsu calls paper. Mapping it (not 255) to white clears the
  // paper's grain: after background division a noisy page's paper sits below 255 and spreads around it.
  let paper = 255;
  for (let v = threshold + 1, seen = 0; v < 256; v++) {
    seen += histogram[v];
    if (seen >= (data.length - inkCount) / 2) {
      paper = v;
      break;
    }
  }
  const range = Math.max(1, paper - ink);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++)
    out[i] = Math.max(0, Math.min(255, Math.round(((data[i] - ink) * 255) / range)));
  return { width: image.width, height: image.height, data: out };
}
