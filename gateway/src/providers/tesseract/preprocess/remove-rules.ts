import type { GrayImage } from '../../_shared/media/decode-image.js';

/**
 * Erases table rules and other long straight strokes so the recogniser does not read them as
 * characters (`|`, `_`, `—`): any horizontal or vertical run of ink at least `minLength` pixels long is
 * painted white, with the anti-aliased fringe next to it. Returns how many pixels were erased.
 */
export function removeRules(image: GrayImage, binary: Uint8Array, minLength: number): number {
  const { width, height, data } = image;
  const erase = new Uint8Array(binary.length);
  let erased = 0;
  const scan = (horizontal: boolean): void => {
    const lines = horizontal ? height : width;
    const length = horizontal ? width : height;
    const at = (line: number, i: number): number => (horizontal ? line * width + i : i * width + line);
    for (let line = 0; line < lines; line++) {
      let start = -1;
      for (let i = 0; i <= length; i++) {
        const ink = i < length && binary[at(line, i)] === 1;
        if (ink && start < 0) start = i;
        if (!ink && start >= 0) {
          if (i - start >= minLength) for (let k = start; k < i; k++) erase[at(line, k)] = 1;
          start = -1;
        }
      }
    }
  };
  scan(true);
  scan(false);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!erase[i]) continue;
      data[i] = 255;
      erased++;
      // The fringe: neighbours that are not ink themselves (anti-aliasing, blur) go too.
      for (const j of [i - 1, i + 1, i - width, i + width]) {
        if (j >= 0 && j < data.length && !binary[j]) data[j] = 255;
      }
    }
  }
  return erased;
}
