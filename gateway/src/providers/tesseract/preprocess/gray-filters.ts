import type { GrayImage } from '../../../media/image/decode-image.js';

/** Sliding-window max (or min) over one axis, O(n) per row with the van Herk/Gil-Werman scheme. */
function slidingExtreme(
  src: Uint8Array,
  width: number,
  height: number,
  radius: number,
  horizontal: boolean,
  max: boolean,
): Uint8Array {
  const out = new Uint8Array(src.length);
  const length = horizontal ? width : height;
  const lines = horizontal ? height : width;
  const window = 2 * radius + 1;
  const prefix = new Uint8Array(length + 2 * radius);
  const suffix = new Uint8Array(length + 2 * radius);
  const padded = new Uint8Array(length + 2 * radius);
  const pick = max ? (a: number, b: number) => (a > b ? a : b) : (a: number, b: number) => (a < b ? a : b);
  const fill = max ? 0 : 255;
  for (let line = 0; line < lines; line++) {
    padded.fill(fill);
    for (let i = 0; i < length; i++) padded[i + radius] = src[horizontal ? line * width + i : i * width + line];
    const n = padded.length;
    for (let i = 0; i < n; i++) prefix[i] = i % window === 0 ? padded[i] : pick(prefix[i - 1], padded[i]);
    for (let i = n - 1; i >= 0; i--)
      suffix[i] = i === n - 1 || (i + 1) % window === 0 ? padded[i] : pick(suffix[i + 1], padded[i]);
    for (let i = 0; i < length; i++) {
      const value = pick(suffix[i], prefix[i + window - 1]);
      out[horizontal ? line * width + i : i * width + line] = value;
    }
  }
  return out;
}

/** Grayscale dilation of the light areas: each pixel becomes the lightest in a square window. */
export function maxFilter(image: GrayImage, radius: number): GrayImage {
  const h = slidingExtreme(image.data, image.width, image.height, radius, true, true);
  return {
    width: image.width,
    height: image.height,
    data: slidingExtreme(h, image.width, image.height, radius, false, true),
  };
}

/** Box blur with a square window, separable, using running sums. */
export function boxBlur(image: GrayImage, radius: number): GrayImage {
  const { width, height } = image;
  const tmp = new Uint8Array(image.data.length);
  const out = new Uint8Array(image.data.length);
  const pass = (src: Uint8Array, dst: Uint8Array, horizontal: boolean): void => {
    const length = horizontal ? width : height;
    const lines = horizontal ? height : width;
    const at = (line: number, i: number): number => (horizontal ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      let sum = 0;
      let count = 0;
      for (let i = 0; i <= Math.min(radius, length - 1); i++) {
        sum += src[at(line, i)];
        count++;
      }
      for (let i = 0; i < length; i++) {
        dst[at(line, i)] = Math.round(sum / count);
        const add = i + radius + 1;
        const remove = i - radius;
        if (add < length) {
          sum += src[at(line, add)];
          count++;
        }
        if (remove >= 0) {
          sum -= src[at(line, remove)];
          count--;
        }
      }
    }
  };
  pass(image.data, tmp, true);
  pass(tmp, out, false);
  return { width, height, data: out };
}

/** Nearest-coarse-pixel bilinear resize, used only for smooth fields such as a background estimate. */
export function resizeSmooth(image: GrayImage, width: number, height: number): GrayImage {
  const out = new Uint8Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(image.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(image.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(image.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(image.width - 1, x0 + 1);
      const wx = fx - x0;
      const top = image.data[y0 * image.width + x0] * (1 - wx) + image.data[y0 * image.width + x1] * wx;
      const bottom = image.data[y1 * image.width + x0] * (1 - wx) + image.data[y1 * image.width + x1] * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bottom * wy);
    }
  }
  return { width, height, data: out };
}

/** Area-average downscale by an integer factor. */
export function downsample(image: GrayImage, factor: number): GrayImage {
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * image.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += image.data[row + dx];
      }
      out[y * width + x] = Math.round(sum / (factor * factor));
    }
  }
  return { width, height, data: out };
}
