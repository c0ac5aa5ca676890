import type { GrayImage } from './ocr-page.js';
import type { PageRules, Rule } from './page-rules.js';

/** A pixel this much darker than white is ink. */
const INK = 128;
/** Gaps up to this many pixels along a rule are bridged (a scanned line breaks up). */
const BRIDGE = 2;
/** A rule is at least this long: a twentieth of the page's shorter side, and 40 pixels. */
const MIN_LENGTH_SHARE = 0.05;
/** A run of ink thicker than this (pixels across) is a filled area, not a rule. */
const MAX_THICKNESS = 8;

/**
 * Long dark runs along the rows of a raster (`lines` rows of `length` pixels): each a run of ink at least `minLength` long, runs on neighbouring
 * lines that cover the same span joined into one rule of some thickness.
 */
function rulesAlong(data: Uint8Array, lines: number, length: number, minLength: number): Rule[] {
  const open: { first: number; last: number; from: number; to: number }[] = [];
  const rules: Rule[] = [];
  const close = (run: (typeof open)[number]) => {
    if (run.last - run.first + 1 <= MAX_THICKNESS)
      rules.push({ at: (run.first + run.last) / 2, from: run.from, to: run.to });
  };
  for (let line = 0; line < lines; line++) {
    const runs: { from: number; to: number }[] = [];
    const offset = line * length;
    let start = -1;
    let lastInk = -BRIDGE - 2;
    for (let along = 0; along <= length; along++) {
      const ink = along < length && data[offset + along] < INK;
      if (ink) {
        if (start < 0 || along - lastInk > BRIDGE + 1) {
          if (start >= 0 && lastInk + 1 - start >= minLength) runs.push({ from: start, to: lastInk + 1 });
          start = along;
        }
        lastInk = along;
      }
    }
    if (start >= 0 && lastInk + 1 - start >= minLength) runs.push({ from: start, to: lastInk + 1 });
    const continued = new Set<number>();
    for (const run of runs) {
      const at = open.findIndex(
        (candidate, index) =>
          !continued.has(index) &&
          candidate.last === line - 1 &&
          Math.abs(candidate.from - run.from) <= 4 * BRIDGE &&
          Math.abs(candidate.to - run.to) <= 4 * BRIDGE,
      );
      if (at >= 0) {
        const candidate = open[at];
        candidate.last = line;
        candidate.from = Math.min(candidate.from, run.from);
        candidate.to = Math.max(candidate.to, run.to);
        continued.add(at);
      } else {
        open.push({ first: line, last: line, ...run });
        continued.add(open.length - 1);
      }
    }
    for (let index = open.length - 1; index >= 0; index--) {
      if (open[index].last < line) {
        close(open[index]);
        open.splice(index, 1);
      }
    }
  }
  open.forEach(close);
  return rules.sort((a, b) => a.at - b.at || a.from - b.from);
}

/** The image's columns as rows (read down a column as along a row). */
function transposed({ data, width, height }: GrayImage): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) out[x * height + y] = data[row + x];
  }
  return out;
}

/**
 * The ruled lines of a page image: runs of ink at least a twentieth of the page's shorter side long
 * and at most 8 pixels thick, across (horizontal) and down (vertical). A table's grid, an underline,
 * a frame; text is made of far shorter runs.
 */
export function findRules(image: GrayImage): PageRules {
  const { data, width, height } = image;
  const minLength = Math.max(40, Math.round(Math.min(width, height) * MIN_LENGTH_SHARE));
  return {
    horizontal: rulesAlong(data, height, width, minLength),
    vertical: rulesAlong(transposed(image), width, height, minLength),
  };
}
