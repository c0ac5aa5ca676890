import type { BBox } from './ocr-types';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 8;

/** Scale at which a page of `pageWidth` px fits `viewportWidth` px, never enlarging it. */
export function fitScale(pageWidth: number, viewportWidth: number): number {
  if (pageWidth <= 0 || viewportWidth <= 0) return 1;
  return Math.min(1, viewportWidth / pageWidth);
}

/** A box in page-image pixels → a rectangle in displayed pixels at `scale` (fit × zoom). */
export function toDisplayRect([x1, y1, x2, y2]: BBox, scale: number): Rect {
  const left = Math.min(x1, x2);
  const top = Math.min(y1, y2);
  return { x: left * scale, y: top * scale, width: Math.abs(x2 - x1) * scale, height: Math.abs(y2 - y1) * scale };
}

/** The inverse of toDisplayRect: displayed pixels → page-image pixels. */
export function toImageBox(rect: Rect, scale: number): BBox {
  return [rect.x / scale, rect.y / scale, (rect.x + rect.width) / scale, (rect.y + rect.height) / scale];
}

export function clampZoom(zoom: number): number {
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** Confidence 0..1 → red through amber to green; the legend uses the same function. */
export function confidenceColor(confidence: number): string {
  const c = Math.max(0, Math.min(1, confidence));
  return `hsl(${Math.round(c * 125)} 80% 42%)`;
}

export function matchesQuery(text: string, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q.length > 0 && text.toLowerCase().includes(q);
}
