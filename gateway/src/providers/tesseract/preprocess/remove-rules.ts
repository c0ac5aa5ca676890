import type { GrayImage } from '../../../media/image/decode-image.js';

/** Length of the unbroken ink run through pixel `i` along the given step (1: horizontal, width: vertical). */
function runThrough(
  binary: Uint8Array,
  i: number,
  step: number,
  limit: number,
  lineStart: number,
  lineEnd: number,
): number {
  let length = 1;
  for (let j = i - step; j >= lineStart && binary[j] && length <= limit; j -= step) length++;
  for (let j = i + step; j < lineEnd && binary[j] && length <= limit; j += step) length++;
  return length;
}

/**
 * Erases table rules and other long straight strokes so the recogniser does not read them as
 * characters (`|`, `_`, `—`): a horizontal or vertical run of ink at least `minLength` long that is
 * thin (at most `maxThickness` across along most of its length, so blurred words do not qualify) is
 * painted white, with the anti-aliased fringe next to it. Returns how many pixels were erased.
 */
export function removeRules(image: GrayImage, binary: Uint8Array, minLength: number, maxThickness: number): number {
  const { width, height, data } = image;
  const erase = new Uint8Array(binary.length);
  const scan = (horizontal: boolean): void => {
    const lines = horizontal ? height : width;
    const length = horizontal ? width : height;
    // Pixel i of line `line` is at line * lineStep + i * step.
    const lineStep = horizontal ? width : 1;
    const step = horizontal ? 1 : width;
    // Thickness is measured across the run: vertically for a horizontal rule and vice versa.
    const across = horizontal ? width : 1;
    for (let line = 0; line < lines; line++) {
      const base = line * lineStep;
      let start = -1;
      for (let i = 0; i <= length; i++) {
        const ink = i < length && binary[base + i * step] === 1;
        if (ink && start < 0) start = i;
        if (ink || start < 0) continue;
        if (i - start >= minLength) {
          let thin = 0;
          for (let k = start; k < i; k++) {
            const p = base + k * step;
            const lineStart = horizontal ? k : line * width;
            const lineEnd = horizontal ? width * height : line * width + width;
            if (runThrough(binary, p, across, maxThickness, lineStart, lineEnd) <= maxThickness) thin++;
          }
          if (thin >= 0.7 * (i - start)) for (let k = start; k < i; k++) erase[base + k * step] = 1;
        }
        start = -1;
      }
    }
  };
  scan(true);
  scan(false);
  let erased = 0;
  for (let i = 0; i < erase.length; i++) {
    if (!erase[i]) continue;
    data[i] = 255;
    erased++;
    // The fringe: neighbours that are not ink themselves (anti-aliasing, blur) go too.
    for (const j of [i - 1, i + 1, i - width, i + width]) {
      if (j >= 0 && j < data.length && !binary[j]) data[j] = 255;
    }
  }
  return erased;
}
