import type { GrayImage } from '../../../media/image/decode-image.js';

/**
 * Rotates a grayscale image by `degrees` (positive: clockwise on screen) about its centre with bilinear
 * sampling, into a canvas just large enough to hold it; uncovered corners are white.
 */
export function rotateGray(image: GrayImage, degrees: number): GrayImage {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const width = Math.ceil(Math.abs(image.width * cos) + Math.abs(image.height * sin));
  const height = Math.ceil(Math.abs(image.width * sin) + Math.abs(image.height * cos));
  const out = new Uint8Array(width * height).fill(255);
  const cxIn = image.width / 2;
  const cyIn = image.height / 2;
  const cxOut = width / 2;
  const cyOut = height / 2;
  const src = image.data;
  const w = image.width;
  for (let v = 0; v < height; v++) {
    const dy = v + 0.5 - cyOut;
    for (let u = 0; u < width; u++) {
      const dx = u + 0.5 - cxOut;
      // Inverse rotation: where this output pixel's centre was in the input.
      const x = cxIn + dx * cos + dy * sin - 0.5;
      const y = cyIn - dx * sin + dy * cos - 0.5;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= image.height) continue;
      const fx = x - x0;
      const fy = y - y0;
      const i = y0 * w + x0;
      const top = src[i] * (1 - fx) + src[i + 1] * fx;
      const bottom = src[i + w] * (1 - fx) + src[i + w + 1] * fx;
      out[v * width + u] = Math.round(top * (1 - fy) + bottom * fy);
    }
  }
  return { width, height, data: out };
}
