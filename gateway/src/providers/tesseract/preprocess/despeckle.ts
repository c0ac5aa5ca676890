import type { GrayImage } from '../../../media/image/decode-image.js';

/**
 * Removes salt-and-pepper specks without touching strokes: a pixel on the other side of `threshold`
 * from all but at most one of its eight neighbours (a speck of one or two pixels) takes the mean of
 * the neighbours on the majority side. A stroke pixel always has two or more like neighbours, so
 * glyphs keep their shape (a 3×3 median rounds them off: "often" reads "otten").
 */
export function despeckle(image: GrayImage, threshold: number): GrayImage {
  const { width, height, data } = image;
  const out = Buffer.from(data);
  const offsets = [-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const dark = data[i] < threshold;
      let like = 0;
      let otherSum = 0;
      for (const o of offsets) {
        const v = data[i + o];
        if (v < threshold === dark) like++;
        else otherSum += v;
      }
      if (like <= 1) out[i] = Math.round(otherSum / (8 - like));
    }
  }
  return { width, height, data: out };
}
