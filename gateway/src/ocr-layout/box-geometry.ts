import { joinWords } from './join-words.js';
import type { BoxCoordinates, OcrBlock, OcrLine, OcrWord } from './ocr-page.js';

/** The smallest box holding every box. */
export function unionBox(boxes: BoxCoordinates[]): BoxCoordinates {
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

export function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/** The middle value; of an even count, the upper of the two middle ones (0 for none). */
export function upperMedian(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The middle value; of an even count, the mean of the two middle ones (0 for none). */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const boxHeight = (box: BoxCoordinates): number => box[3] - box[1];

/** A line of words, left to right. */
export function makeLine(words: OcrWord[]): OcrLine {
  const sorted = [...words].sort((a, b) => a.bbox[0] - b.bbox[0]);
  return {
    text: joinWords(sorted.map((w) => w.text)),
    bbox: unionBox(sorted.map((w) => w.bbox)),
    confidence: mean(sorted.map((w) => w.confidence)),
    words: sorted,
  };
}

/** A block of lines in the given order. */
export function makeBlock(lines: OcrLine[], kind?: OcrBlock['kind']): OcrBlock {
  return {
    text: lines.map((l) => l.text).join('\n'),
    bbox: unionBox(lines.map((l) => l.bbox)),
    confidence: mean(lines.map((l) => l.confidence)),
    lines,
    ...(kind ? { kind } : {}),
  };
}

/** The height of the page's body text: the median line height, each line weighted by its words. */
export function bodyLineHeight(lines: OcrLine[]): number {
  return median(lines.flatMap((line) => line.words.map(() => boxHeight(line.bbox))));
}

/** A box as Mistral's answers give one: whole pixels, top-left and bottom-right corners. */
export const boxCorners = (bbox: BoxCoordinates) => ({
  top_left_x: Math.round(bbox[0]),
  top_left_y: Math.round(bbox[1]),
  bottom_right_x: Math.round(bbox[2]),
  bottom_right_y: Math.round(bbox[3]),
});
