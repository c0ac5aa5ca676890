import { drawTextImage, proseLines, type DrawnImage } from '../../gateway/test/support/draw-text.js';

/** An A4 page at 200 DPI (1654×2339): 11 pt body text (30 px), 40 numbered lines of prose. */
export function a4Page(seed: number): Promise<DrawnImage> {
  const lines = proseLines(30, 200, 150, 40).map((line, i) => ({ ...line, text: `${seed + i}. ${line.text}` }));
  return drawTextImage(lines, { width: 1654, height: 2339 });
}
