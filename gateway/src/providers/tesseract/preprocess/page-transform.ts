import type { BoxCoordinates, OcrBlock } from '../../contracts/ocr.js';

/**
 * Maps points of a preprocessed image back to the original page: the preprocessed image is the
 * original rotated by `rotation` degrees about its centre into a canvas of `rotatedWidth`×`rotatedHeight`,
 * then scaled by `scale`.
 */
export interface PageTransform {
  originalWidth: number;
  originalHeight: number;
  rotation: number;
  rotatedWidth: number;
  rotatedHeight: number;
  scale: number;
}

export function identityTransform(width: number, height: number): PageTransform {
  return {
    originalWidth: width,
    originalHeight: height,
    rotation: 0,
    rotatedWidth: width,
    rotatedHeight: height,
    scale: 1,
  };
}

/** The point in the original page that a point of the rotated (unscaled) canvas came from. */
export function rotatedToOriginal(t: PageTransform, x: number, y: number): [number, number] {
  const radians = (-t.rotation * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const dx = x - t.rotatedWidth / 2;
  const dy = y - t.rotatedHeight / 2;
  return [t.originalWidth / 2 + dx * cos - dy * sin, t.originalHeight / 2 + dx * sin + dy * cos];
}

/** A box of the preprocessed image as the axis-aligned box it covers on the original page, clamped to it. */
export function boxToOriginal(t: PageTransform, box: BoxCoordinates): BoxCoordinates {
  const corners = [
    [box[0], box[1]],
    [box[2], box[1]],
    [box[0], box[3]],
    [box[2], box[3]],
  ].map(([x, y]) => rotatedToOriginal(t, x / t.scale, y / t.scale));
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const clampX = (v: number): number => Math.max(0, Math.min(t.originalWidth, v));
  const clampY = (v: number): number => Math.max(0, Math.min(t.originalHeight, v));
  return [
    Math.floor(clampX(Math.min(...xs))),
    Math.floor(clampY(Math.min(...ys))),
    Math.ceil(clampX(Math.max(...xs))),
    Math.ceil(clampY(Math.max(...ys))),
  ];
}

/** Blocks read on the preprocessed image, with every box moved onto the original page. */
export function blocksToOriginal(t: PageTransform, blocks: OcrBlock[]): OcrBlock[] {
  if (t.rotation === 0 && t.scale === 1) return blocks;
  const box = (b: BoxCoordinates): BoxCoordinates => boxToOriginal(t, b);
  return blocks.map((block) => ({
    ...block,
    bbox: box(block.bbox),
    lines: block.lines.map((line) => ({
      ...line,
      bbox: box(line.bbox),
      words: line.words.map((w) => ({ ...w, bbox: box(w.bbox) })),
    })),
  }));
}
