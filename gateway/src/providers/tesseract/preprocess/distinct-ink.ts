import type { GrayImage } from '../../../media/image/decode-image.js';
import type { BoxCoordinates } from '../../contracts/ocr.js';
import { boxBlur } from './gray-filters.js';
import { estimateNoise } from './estimate-noise.js';
import { inkMarks, type InkMark } from './ink-marks.js';

/**
 * Ink is distinct when it is this many noise sigmas darker than the paper (on the raw page, or on the
 * page smoothed 3×3), and never less than MIN_DEPTH gray levels. Measured on the benchmark's
 * pages: at 2 sigmas a page of grain alone and the faint noisy page nobody reads show no glyph-shaped
 * mark in a row on the smoothed page (at 1.5 the latter shows a hundred), the faint low-contrast prose pages 250 or more (at
 * 2.5 one of them only 7).
 */
const COUNT_SIGMAS = 2;
const DRAW_SIGMAS = 4;
const MIN_DEPTH = 20;

/** Marks smaller than this (pixels) are grain that reached that depth; a letter's dot is larger. */
const MIN_MARK_AREA = 4;
/** A mark at least this tall (px), no wider than 4 heights and a sixth filled, has the shape of a glyph. */
const MIN_GLYPH_HEIGHT = 6;
/** Fewer glyph-shaped marks in rows than this are specks that happen to line up, not a word. */
const MIN_GLYPHS = 3;

export interface DistinctInk {
  /** The page with only its distinct ink (and the pixels next to it), in its own gray on white paper: the grain gone. */
  image: GrayImage;
  /** Whether at least MIN_GLYPHS distinct marks have the size and shape of glyphs and stand in a row with another, as letters do. */
  words: boolean;
}

/**
 * Whether the glyph-shaped mark `boxes[at]` has another beside it in a row, as the letters of a word
 * do: no further away than the taller one's height, overlapping it by half the shorter one's height.
 * A speck of grain that reached the depth of ink stands alone. `boxes` are sorted by their left edge.
 */
function hasNeighbour(boxes: BoxCoordinates[], at: number): boolean {
  const box = boxes[at];
  for (let other = 0; other < boxes.length; other++) {
    const next = boxes[other];
    if (other === at) continue;
    const reach = Math.max(box[3] - box[1], next[3] - next[1]);
    if (next[0] > box[2] + reach) break;
    const gap = Math.max(next[0] - box[2], box[0] - next[2]);
    const overlap = Math.min(box[3], next[3]) - Math.max(box[1], next[1]);
    if (gap <= reach && overlap * 2 >= Math.min(box[3] - box[1], next[3] - next[1])) return true;
  }
  return false;
}

/** 1 where `data` is darker than `threshold`. */
function below(data: Uint8Array, threshold: number): Uint8Array {
  const binary = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) binary[i] = data[i] < threshold ? 1 : 0;
  return binary;
}

/** How many of `marks` have the size and shape of glyphs and stand in a row with another (counted up to MIN_GLYPHS). */
function glyphsInRows(marks: InkMark[], height: number): number {
  const glyphs = marks
    .filter(({ bbox, area }) => {
      const w = bbox[2] - bbox[0];
      const h = bbox[3] - bbox[1];
      return h >= MIN_GLYPH_HEIGHT && h <= height / 4 && w <= 4 * h && area * 6 >= w * h;
    })
    .map((mark) => mark.bbox)
    .sort((a, b) => a[0] - b[0]);
  let inRows = 0;
  for (let at = 0; at < glyphs.length && inRows < MIN_GLYPHS; at++) if (hasNeighbour(glyphs, at)) inRows++;
  return inRows;
}

/** The median gray level: the paper's, on a page that is mostly paper. */
function medianLevel(data: Uint8Array): number {
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[v]++;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v];
    if (seen * 2 >= data.length) return v;
  }
  return 255;
}

/**
 * The ink that stands clearly out of a grainy page: pixels several noise sigmas (and MIN_DEPTH gray
 * levels) darker than the paper, in marks of a few pixels or more. Grain, however heavy, barely reaches
 * that depth, while printed words do: a grainy page with a few words keeps its words on clean paper,
 * and a page of grain alone shows no glyph-shaped marks in a row (`words` false, no image drawn).
 */
export function distinctInk(page: GrayImage): DistinctInk {
  const { width, height, data } = page;
  const paper = medianLevel(data);
  const noise = estimateNoise(page);
  // Drawn from the raw pixels' deep ink, which keeps the image clean; counted there, or else on the
  // page smoothed 3×3, which thins the grain (not strokes two pixels wide or more), so faint text deep
  // in grain counts as text too (smoothing joins the letters of a small word, hence both).
  const drawn = inkMarks(below(data, paper - Math.max(DRAW_SIGMAS * noise, MIN_DEPTH)), width, height, MIN_MARK_AREA);
  const words =
    glyphsInRows(drawn.marks, height) >= MIN_GLYPHS ||
    glyphsInRows(
      inkMarks(
        below(boxBlur(page, 1).data, paper - Math.max(COUNT_SIGMAS * noise, MIN_DEPTH)),
        width,
        height,
        MIN_MARK_AREA,
      ).marks,
      height,
    ) >= MIN_GLYPHS;
  if (!words) return { image: page, words };
  const { labels, ids } = drawn;
  // The marks' own gray, and the pixels next to them (their anti-aliased edges), on white paper.
  const out = Buffer.alloc(data.length, 255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!(labels[i] && ids[labels[i]])) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy < 0 || xx < 0 || yy >= height || xx >= width) continue;
          const j = yy * width + xx;
          out[j] = Math.min(255, Math.round((255 * data[j]) / Math.max(1, paper)));
        }
      }
    }
  }
  return { image: { width, height, data: out }, words };
}
