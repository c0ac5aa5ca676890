import { upperMedian } from '../../ocr-layout/box-geometry.js';
import type { OcrBlock } from '../contracts/ocr.js';

/**
 * The page's skew in degrees as Tesseract's own reading shows it: along a skewed line, word boxes climb
 * or fall. The slope of word bottoms over x, fitted per line of four or more words; the median over
 * lines, or undefined when too few lines are long enough (tables, forms, receipts).
 */
export function lineSkew(blocks: OcrBlock[]): number | undefined {
  const angles: number[] = [];
  for (const line of blocks.flatMap((b) => b.lines)) {
    if (line.words.length < 4) continue;
    const xs = line.words.map((w) => (w.bbox[0] + w.bbox[2]) / 2);
    const ys = line.words.map((w) => w.bbox[3]);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    let sxy = 0;
    let sxx = 0;
    xs.forEach((x, i) => {
      sxy += (x - mx) * (ys[i] - my);
      sxx += (x - mx) ** 2;
    });
    if (sxx > 0) angles.push((Math.atan(sxy / sxx) * 180) / Math.PI);
  }
  return angles.length >= 3 ? upperMedian(angles) : undefined;
}
