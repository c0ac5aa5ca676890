import type { GrayImage } from '../../../media/image/decode-image.js';

/**
 * Calls `visit` for each speck: a pixel on the other side of `threshold` from all but at most one of
 * its eight neighbours (a speck of one or two pixels), with the mean of the neighbours on the majority
 * side. A stroke pixel always has two or more like neighbours, so glyph pixels are never specks.
 */
function visitSpecks(image: GrayImage, threshold: number, visit: (index: number, majorityMean: number) => void): void {
  const { width, height, data } = image;
  const offsets = Int32Array.of(-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const dark = data[i] < threshold;
      // Two like neighbours make it no speck: most pixels are told after two looks.
      let like = 0;
      for (let k = 0; k < 8 && like < 2; k++) if (data[i + offsets[k]] < threshold === dark) like++;
      if (like > 1) continue;
      like = 0;
      let otherSum = 0;
      for (let k = 0; k < 8; k++) {
        const v = data[i + offsets[k]];
        if (v < threshold === dark) like++;
        else otherSum += v;
      }
      visit(i, Math.round(otherSum / (8 - like)));
    }
  }
}

/**
 * Removes salt-and-pepper specks without touching strokes: each speck takes the mean of its majority
 * neighbours (a 3×3 median rounds glyphs off: "often" reads "otten").
 */
export function despeckle(image: GrayImage, threshold: number): GrayImage {
  const out = Buffer.from(image.data);
  visitSpecks(image, threshold, (i, mean) => {
    out[i] = mean;
  });
  return { width: image.width, height: image.height, data: out };
}

/** The share of the page's pixels that are specks (see despeckle): about 0 on a clean scan or render. */
export function speckShare(image: GrayImage, threshold: number): number {
  let specks = 0;
  visitSpecks(image, threshold, () => specks++);
  return specks / Math.max(1, image.width * image.height);
}
