import type { OcrBlock, OcrLine } from './ocr-page.js';
import { makeBlock, makeLine, upperMedian } from './box-geometry.js';

interface Page {
  width: number;
  height: number;
}

/** Splits blocks into horizontal bands: a new band starts where no block of the previous one reaches. */
function bands(blocks: OcrBlock[], tolerance: number): OcrBlock[][] {
  const sorted = [...blocks].sort((a, b) => a.bbox[1] - b.bbox[1]);
  const out: OcrBlock[][] = [];
  let bottom = -Infinity;
  for (const block of sorted) {
    if (out.length === 0 || block.bbox[1] >= bottom - tolerance) {
      out.push([block]);
      bottom = block.bbox[3];
    } else {
      out[out.length - 1].push(block);
      bottom = Math.max(bottom, block.bbox[3]);
    }
  }
  return out;
}

/** Splits blocks into columns at vertical gaps at least `gutter` wide that no block crosses. */
function columns(blocks: OcrBlock[], gutter: number): OcrBlock[][] {
  const sorted = [...blocks].sort((a, b) => a.bbox[0] - b.bbox[0]);
  const out: OcrBlock[][] = [];
  let right = -Infinity;
  for (const block of sorted) {
    if (out.length === 0 || block.bbox[0] - right >= gutter) {
      out.push([block]);
      right = block.bbox[2];
    } else {
      out[out.length - 1].push(block);
      right = Math.max(right, block.bbox[2]);
    }
  }
  return out;
}

/** A gap between words wider than this many line heights separates columns (word spaces are about a quarter). */
const GUTTER_FACTOR = 1.2;

const centre = (line: OcrLine): number => (line.bbox[1] + line.bbox[3]) / 2;
const lineHeight = (line: OcrLine): number => line.bbox[3] - line.bbox[1];

/**
 * Side-by-side columns are a table (or a form, a receipt, a listing) when their lines pair up row by
 * row and are short; prose columns have long lines, even where their baselines happen to align.
 */
function isTable(cols: OcrBlock[][]): boolean {
  const perColumn = cols.map((col) => col.flatMap((b) => b.lines));
  const all = perColumn.flat();
  if (all.length < 4) return false;
  let paired = 0;
  perColumn.forEach((lines, c) => {
    for (const line of lines) {
      const partner = perColumn.some(
        (other, o) =>
          o !== c &&
          other.some((l) => Math.abs(centre(l) - centre(line)) < Math.max(lineHeight(l), lineHeight(line)) / 2),
      );
      if (partner) paired++;
    }
  });
  return paired / all.length >= 0.6 && upperMedian(all.map((l) => l.words.length)) <= 4;
}

/** Lines that share a row (their centres within half a line height), top to bottom, each row left to right. */
function rowsOf(blocks: OcrBlock[]): OcrLine[][] {
  const lines = blocks.flatMap((b) => b.lines).sort((a, b) => centre(a) - centre(b));
  const rows: OcrLine[][] = [];
  for (const line of lines) {
    const row = rows[rows.length - 1];
    const rowCentre = row ? upperMedian(row.map(centre)) : 0;
    if (row && Math.abs(centre(line) - rowCentre) < Math.max(...row.map(lineHeight), lineHeight(line)) / 2)
      row.push(line);
    else rows.push([line]);
  }
  return rows;
}

/**
 * Columns whose lines pair up row by row, read row by row: each run of two or more rows with several
 * cells becomes a table block whose lines are its rows; the rows with a single cell above, between and
 * below (an invoice's address lines, the total under a table) become plain blocks in their place.
 */
function tableBlocks(blocks: OcrBlock[]): OcrBlock[] {
  const rows = rowsOf(blocks);
  const multi = rows.map((row) => row.length >= 2);
  // A lone multi-cell row (a letterhead's name and "INVOICE") is text, not a table.
  const inTable = multi.map((m, i) => m && (multi[i - 1] === true || multi[i + 1] === true));
  const out: OcrBlock[] = [];
  rows.forEach((row, i) => {
    const line = makeLine(row.flatMap((l) => l.words));
    if (i > 0 && inTable[i] === inTable[i - 1]) {
      const last = out.pop()!;
      out.push(makeBlock([...last.lines, line], last.kind));
    } else out.push(makeBlock([line], inTable[i] ? 'table' : undefined));
  });
  return out;
}

/** Splits a line's words where a gap wider than `gap` separates them (a gutter or a table's column). */
function lineSegments(line: OcrLine, gap: number): OcrLine[] {
  const segments: OcrLine[] = [];
  let current = [line.words[0]];
  for (const word of line.words.slice(1)) {
    if (word.bbox[0] - current[current.length - 1].bbox[2] > gap) {
      segments.push(makeLine(current));
      current = [];
    }
    current.push(word);
  }
  if (segments.length === 0) return [line];
  segments.push(makeLine(current));
  return segments;
}

/**
 * Where the engine ran a line across a gutter or table columns, cuts the line at the wide gap and the
 * block into one block per column of pieces, so the columns can be read one after the other.
 */
function splitAtGutters(blocks: OcrBlock[]): OcrBlock[] {
  return blocks.flatMap((block) => {
    const pieces = block.lines.flatMap((line) => lineSegments(line, GUTTER_FACTOR * lineHeight(line)));
    if (pieces.length === block.lines.length) return [block];
    const asBlocks = pieces.map((piece) => makeBlock([piece]));
    const unit = upperMedian(pieces.map(lineHeight));
    const cols = columns(asBlocks, Math.max(6, unit * 0.8));
    // Pieces that do not fall into separate columns (a receipt's prices under a centred heading) stay
    // lines; so does a row whose far piece stands alone (a letterhead's name and "INVOICE").
    if (cols.length === 1 || cols.some((col) => col.length < 2)) return [block];
    return cols.map((col) =>
      makeBlock(col.flatMap((b) => b.lines).sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0])),
    );
  });
}

/**
 * Gutters: runs of x (at least `width` wide, between text on both sides) that blocks cover for less
 * than a sixth of the region's height. A title, a footer or a photo caption may cross a gutter; the
 * columns beside it may not.
 */
function gutters(blocks: OcrBlock[], width: number): [number, number][] {
  const left = Math.min(...blocks.map((b) => b.bbox[0]));
  const right = Math.max(...blocks.map((b) => b.bbox[2]));
  const height = Math.max(...blocks.map((b) => b.bbox[3])) - Math.min(...blocks.map((b) => b.bbox[1]));
  const coverage = new Float64Array(Math.max(0, Math.ceil(right - left)) + 1);
  for (const b of blocks) {
    for (let x = Math.floor(b.bbox[0] - left); x < Math.ceil(b.bbox[2] - left); x++)
      coverage[x] += b.bbox[3] - b.bbox[1];
  }
  const out: [number, number][] = [];
  let start = -1;
  for (let x = 0; x <= coverage.length; x++) {
    const low = x < coverage.length && coverage[x] <= height / 6;
    if (low && start < 0) start = x;
    if (!low && start >= 0) {
      if (start > 0 && x < coverage.length && x - start >= width) out.push([left + start, left + x]);
      start = -1;
    }
  }
  return out;
}

function order(blocks: OcrBlock[], unit: number): OcrBlock[] {
  if (blocks.length <= 1) return blocks;
  const gutter = Math.max(6, unit * 0.8);
  const found = gutters(blocks, gutter);
  if (found.length > 0) {
    // Crossing means covering a gutter's middle: a column's ragged right edge may reach into the gutter.
    // A block crossing a gutter cuts the page only where nothing stands beside it (a title above the
    // columns); a gutter crossed by a block with text beside it is no gutter (an invoice's table).
    const crossing = (b: OcrBlock, [x1, x2]: [number, number]): boolean =>
      b.bbox[0] < (x1 + x2) / 2 && b.bbox[2] > (x1 + x2) / 2;
    const beside = (a: OcrBlock, b: OcrBlock): boolean =>
      Math.min(a.bbox[3], b.bbox[3]) - Math.max(a.bbox[1], b.bbox[1]) > unit * 0.5;
    // A float (a photo caption, a pull quote) sits between two columns with text on both sides: it is
    // narrower than half the region and is read after the columns it stands between.
    const regionLeft = Math.min(...blocks.map((b) => b.bbox[0]));
    const regionWidth = Math.max(...blocks.map((b) => b.bbox[2])) - regionLeft;
    const floats = new Set<OcrBlock>();
    const isFloat = (c: OcrBlock, g: [number, number]): boolean => {
      if (c.bbox[2] - c.bbox[0] > regionWidth / 2) return false;
      const sides = blocks.filter((b) => b !== c && !crossing(b, g) && beside(b, c));
      return sides.some((b) => b.bbox[2] <= (g[0] + g[1]) / 2) && sides.some((b) => b.bbox[0] >= (g[0] + g[1]) / 2);
    };
    const clean = found.filter((g) => {
      const crossers = blocks.filter((b) => crossing(b, g));
      const fixed = crossers.filter((c) => !isFloat(c, g));
      if (!fixed.every((c) => !blocks.some((b) => !crossing(b, g) && beside(b, c)))) return false;
      for (const c of crossers) if (!fixed.includes(c)) floats.add(c);
      return true;
    });
    if (floats.size > 0 && floats.size < blocks.length) {
      const rest = blocks.filter((b) => !floats.has(b));
      return [...order(rest, unit), ...[...floats].sort((a, b) => a.bbox[1] - b.bbox[1])];
    }
    const crosses = (b: OcrBlock): boolean => clean.some((g) => crossing(b, g));
    const separators = blocks.filter(crosses).sort((a, b) => a.bbox[1] - b.bbox[1]);
    if (clean.length === 0) {
      // Every gutter has text beside a block that crosses it: not columns.
    } else if (separators.length === 0) {
      const vertical = columns(blocks, gutter);
      if (vertical.length > 1)
        return isTable(vertical) ? tableBlocks(blocks) : vertical.flatMap((col) => order(col, unit));
    } else if (separators.length < blocks.length) {
      // Blocks that cross the gutters (titles, footers) cut the page into stacked sections of columns.
      const sections: OcrBlock[][] = Array.from({ length: separators.length + 1 }, () => []);
      for (const block of blocks) {
        if (crosses(block)) continue;
        const after = separators.filter((s) => s.bbox[1] <= block.bbox[1]).length;
        sections[after].push(block);
      }
      return sections.flatMap((section, i) => [...(i > 0 ? [separators[i - 1]] : []), ...order(section, unit)]);
    }
  }
  const horizontal = bands(blocks, unit * 0.1);
  if (horizontal.length > 1) return horizontal.flatMap((band) => order(band, unit));
  return [...blocks].sort((a, b) => readingStart(a, b, unit));
}

/**
 * Which of two overlapping blocks is read first: the one whose first line starts further left when
 * their first lines share a row, else the higher one. Where Tesseract cut a line in two, the block of
 * its right piece runs on to the next line's start and begins at the margin too, so its box cannot say.
 */
function readingStart(a: OcrBlock, b: OcrBlock, unit: number): number {
  const [first, second] = [a.lines[0]?.bbox ?? a.bbox, b.lines[0]?.bbox ?? b.bbox];
  const sameRow = Math.min(first[3], second[3]) - Math.max(first[1], second[1]) > unit * 0.5;
  return sameRow ? first[0] - second[0] : a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0];
}

/** Running headers and footers: small text alone at the top or bottom edge, set apart from the body. */
function markMargins(blocks: OcrBlock[], page: Page, unit: number): void {
  if (blocks.length < 3) return;
  const body = (b: OcrBlock): boolean => b.kind === undefined;
  const small = (b: OcrBlock): boolean => upperMedian(b.lines.map(lineHeight)) <= unit * 1.3 && b.lines.length <= 2;
  const first = blocks[0];
  const rest = blocks.slice(1);
  const restTop = Math.min(...rest.map((b) => b.bbox[1]));
  if (body(first) && small(first) && first.bbox[3] < page.height * 0.1 && restTop - first.bbox[3] > unit * 1.5)
    first.kind = 'header';
  const last = blocks[blocks.length - 1];
  const others = blocks.slice(0, -1);
  const othersBottom = Math.max(...others.map((b) => b.bbox[3]));
  if (body(last) && small(last) && last.bbox[1] > page.height * 0.9 && last.bbox[1] - othersBottom > unit * 1.5)
    last.kind = 'footer';
}

/**
 * Puts a page's blocks in the order a person reads them (recursive XY cut on projection profiles):
 * sections between full-width blocks top to bottom, columns left to right within a section, a table
 * row by row (its cells merged into one block whose lines are rows), running header first and footer
 * last. Word and line boxes are kept.
 */
export function orderBlocks(blocks: OcrBlock[], page: Page): OcrBlock[] {
  const split = splitAtGutters(blocks);
  const unit = upperMedian(split.flatMap((b) => b.lines.map(lineHeight))) || 10;
  const ordered = order(split, unit);
  markMargins(ordered, page, unit);
  return ordered;
}

/** Page text from blocks: lines on their own rows, blocks separated by a blank line. */
export function blocksText(blocks: OcrBlock[]): string {
  return blocks.map((b) => b.text).join('\n\n');
}
