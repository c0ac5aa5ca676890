import type { BoxCoordinates, OcrLine, OcrPage, OcrWord } from './ocr-page.js';
import { findTables, RULE_GLYPHS } from './find-tables.js';
import { bodyLineHeight, boxHeight, unionBox } from './box-geometry.js';
import type { PageRegion, RegionType } from './page-regions.js';

/** Top and bottom bands, as fractions of the page height, where a running header or footer sits. */
const BAND = 0.1;
/** A band line at most this fraction of the body text's height counts as small print. */
const SMALL = 0.85;
const PAGE_NUMBER = /^(page|p\.|-|–)?\s*\d{1,4}\s*((of|\/)\s*\d{1,4})?\s*(-|–)?$/i;

export interface PageBands {
  header: OcrLine[];
  footer: OcrLine[];
}

const pageLines = (page: OcrPage): OcrLine[] => page.blocks.flatMap((block) => block.lines);
/** Text with digits folded, so "Page 3" on one page repeats "Page 4" on the next. */
const repeatKey = (line: OcrLine): string => line.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/**
 * Running headers and footers by position: lines in the top or bottom tenth of a page that repeat on
 * another page (digits aside), or that stand apart from the page's other text (their block stays in
 * the band) and are smaller than the body text or a page number. A page whose every line sits in a band keeps them all as content.
 */
export function findPageBands(pages: OcrPage[]): PageBands[] {
  const inTop = (page: OcrPage, line: OcrLine) => line.bbox[3] <= page.height * BAND;
  const inBottom = (page: OcrPage, line: OcrLine) => line.bbox[1] >= page.height * (1 - BAND);
  const seen = { top: new Map<string, number>(), bottom: new Map<string, number>() };
  for (const page of pages) {
    const top = new Set(
      pageLines(page)
        .filter((line) => inTop(page, line))
        .map(repeatKey),
    );
    const bottom = new Set(
      pageLines(page)
        .filter((line) => inBottom(page, line))
        .map(repeatKey),
    );
    for (const key of top) seen.top.set(key, (seen.top.get(key) ?? 0) + 1);
    for (const key of bottom) seen.bottom.set(key, (seen.bottom.get(key) ?? 0) + 1);
  }
  return pages.map((page) => {
    const lines = pageLines(page);
    const body = bodyLineHeight(lines);
    // A line whose block runs on past the band is the first (or last) line of a column, not apart from
    // the page's text: a scan with a narrow margin starts its columns in the top tenth.
    const inBlockPast = new Set<OcrLine>();
    for (const block of page.blocks) {
      if (block.lines.some((line) => !inTop(page, line)))
        block.lines.filter((line) => inTop(page, line)).forEach((line) => inBlockPast.add(line));
      if (block.lines.some((line) => !inBottom(page, line)))
        block.lines.filter((line) => inBottom(page, line)).forEach((line) => inBlockPast.add(line));
    }
    const isRunning = (line: OcrLine, repeats: Map<string, number>) =>
      (repeats.get(repeatKey(line)) ?? 0) > 1 ||
      (!inBlockPast.has(line) && (boxHeight(line.bbox) <= body * SMALL || PAGE_NUMBER.test(line.text.trim())));
    const header = lines.filter((line) => inTop(page, line) && isRunning(line, seen.top));
    const footer = lines.filter((line) => inBottom(page, line) && isRunning(line, seen.bottom));
    if (header.length + footer.length === lines.length) return { header: [], footer: [] };
    return { header, footer };
  });
}

/** A line this much taller than the body text is a heading; the steps after it pick the level. */
const HEADING = 1.25;
const HEADING_LEVELS: [ratio: number, level: number][] = [
  [1.9, 1],
  [1.5, 2],
  [HEADING, 3],
];
/** A vertical gap wider than this many body heights ends a paragraph. */
const PARAGRAPH_GAP = 0.8;
export const LIST_MARKER = /^([•·▪‣◦●○■□➢►\-–—*+]|\(?\d{1,3}[.)]|\(?[a-z][.)])$/i;
const CAPTION = /^(figure|fig\.|table|chart|photo|image|plate|exhibit)\s*\d+[.:]?/i;

const isListItem = (line: OcrLine) => line.words.length > 1 && LIST_MARKER.test(line.words[0].text);

function headingLevel(line: OcrLine, body: number): number | undefined {
  if (body <= 0) return undefined;
  const ratio = boxHeight(line.bbox) / body;
  return HEADING_LEVELS.find(([at]) => ratio >= at)?.[1];
}

/** A provider line without the words a table or a band took from it (null when none are left). */
function remainder(line: OcrLine, taken: Set<OcrWord>): OcrLine | null {
  const words = line.words.filter((word) => !taken.has(word));
  if (words.length === line.words.length) return line;
  if (words.length === 0) return null;
  return {
    text: words.map((word) => word.text).join(' '),
    bbox: unionBox(words.map((word) => word.bbox)),
    confidence: words.reduce((sum, word) => sum + word.confidence, 0) / words.length,
    words,
  };
}

function region(type: RegionType, lines: OcrLine[], extra: Partial<PageRegion> = {}): PageRegion {
  return { type, bbox: unionBox(lines.map((line) => line.bbox)), lines, ...extra };
}

/** A block's lines cut into paragraphs, headings and lists: at wide gaps, size changes and list markers. */
function splitBlock(lines: OcrLine[], body: number): PageRegion[] {
  const regions: PageRegion[] = [];
  let current: OcrLine[] = [];
  let currentType: RegionType = 'text';
  let currentLevel: number | undefined;
  const flush = () => {
    if (current.length === 0) return;
    const type = currentType === 'text' && CAPTION.test(current[0].text) ? 'caption' : currentType;
    regions.push(region(type, current, currentLevel ? { level: currentLevel } : {}));
    current = [];
  };
  for (const line of lines) {
    const level = headingLevel(line, body);
    const type: RegionType = level ? 'title' : isListItem(line) ? 'list' : 'text';
    const previous = current[current.length - 1];
    const gap = previous ? line.bbox[1] - previous.bbox[3] : 0;
    const continuesList =
      currentType === 'list' &&
      type === 'text' &&
      previous !== undefined &&
      line.bbox[0] > current[0].bbox[0] + body * 0.5;
    const sameRegion =
      previous !== undefined &&
      gap <= body * PARAGRAPH_GAP &&
      (type === currentType || continuesList) &&
      (type !== 'title' || level === currentLevel);
    if (!sameRegion) {
      flush();
      currentType = type;
      currentLevel = level;
    }
    current.push(line);
  }
  flush();
  return regions;
}

function within(box: BoxCoordinates, outer: BoxCoordinates): boolean {
  const x = (box[0] + box[2]) / 2;
  const y = (box[1] + box[3]) / 2;
  return x >= outer[0] && x <= outer[2] && y >= outer[1] && y <= outer[3];
}

const overlapsX = (a: BoxCoordinates, b: BoxCoordinates) => a[0] < b[2] && b[0] < a[2];

/** Puts a region before the first one in reading order that starts below it in the same column. */
function insertByPosition(regions: PageRegion[], added: PageRegion): void {
  const at = regions.findIndex((other) => other.bbox[1] >= added.bbox[1] && overlapsX(other.bbox, added.bbox));
  if (at < 0) regions.push(added);
  else regions.splice(at, 0, added);
}

/** A word read at least this confidently is text, not noise made of a picture. */
const CONFIDENT_WORD = 0.9;

/** Lines a caption may have; a longer block beside a figure is a paragraph. */
const CAPTION_LINES = 8;
/** How far (body line heights) a caption may sit from its figure, or from the caption line before it. */
const CAPTION_GAP = 2.5;

/** Whether `box` sits within the figure's width (a tenth of it to spare on each side). */
function underFigure(box: BoxCoordinates, figure: BoxCoordinates): boolean {
  const spare = (figure[2] - figure[0]) / 10;
  return box[0] >= figure[0] - spare && box[2] <= figure[2] + spare;
}

/**
 * Captions with their figures: the short text regions stacked right below a figure and within its
 * width become one caption, placed just after the figure (text just above a figure is more often the
 * paragraph before it). A caption that starts "Figure 3" is found by its words wherever it is (see
 * splitBlock).
 */
function attachCaptions(regions: PageRegion[], body: number): PageRegion[] {
  const unit = body || 10;
  for (const figure of regions.filter((r) => r.type === 'image')) {
    const free = (r: PageRegion) =>
      (r.type === 'text' || r.type === 'caption') &&
      r.lines.length <= CAPTION_LINES &&
      underFigure(r.bbox, figure.bbox);
    const parts: PageRegion[] = [];
    for (let edge = figure.bbox[3]; ;) {
      const next = regions
        .filter((r) => free(r) && !parts.includes(r))
        .map((r) => ({ r, gap: r.bbox[1] - edge }))
        .filter(({ gap }) => gap >= -unit / 2 && gap <= CAPTION_GAP * unit)
        .sort((a, b) => a.gap - b.gap)[0];
      if (!next) break;
      parts.push(next.r);
      edge = next.r.bbox[3];
    }
    if (parts.length === 0) continue;
    const lines = parts.flatMap((part) => part.lines).sort((a, b) => a.bbox[1] - b.bbox[1]);
    const remaining = regions.filter((r) => !parts.includes(r));
    remaining.splice(remaining.indexOf(figure) + 1, 0, region('caption', lines));
    regions = remaining;
  }
  return regions;
}

/**
 * A page cut into typed regions in reading order: header, then the body as the engine ordered its
 * blocks (split into titles, paragraphs, lists and captions), tables where rows of short cells line up,
 * figures placed where they sit, each followed by its caption, then footer. `pictures` are all the page's picture areas, including
 * figures left out by a limit.
 */
export function classifyRegions(
  page: OcrPage,
  bands: PageBands,
  figures: BoxCoordinates[],
  pictures: BoxCoordinates[] = figures,
): PageRegion[] {
  const allLines = page.blocks.flatMap((block) => block.lines);
  // Words read inside a picture are part of it (often noise the engine made of a photo), returned as a
  // figure or not; but a picture's box is a rectangle, and text wrapped around a photo's edge falls in
  // it: a confident word on a line at least half outside the picture is the page’s text.
  const inPicture = (word: OcrWord) => pictures.some((picture) => within(word.bbox, picture));
  const pictureWords = (line: OcrLine) => {
    const inside = line.words.filter(inPicture);
    const halfOutside = inside.length * 2 <= line.words.length;
    return inside.filter((word) => !halfOutside || word.confidence < CONFIDENT_WORD);
  };
  const banded = new Set<OcrWord>([
    ...[...bands.header, ...bands.footer].flatMap((line) => line.words),
    ...allLines.flatMap(pictureWords),
  ]);
  // A table's rules read as glyphs (`|`) stand a whole row high: they would make its rows look taller than its text.
  const ruleGlyphs = new Set(allLines.flatMap((line) => line.words.filter((word) => RULE_GLYPHS.test(word.text))));
  const body = bodyLineHeight(
    allLines
      .filter((line) => !line.words.some((word) => banded.has(word)))
      .flatMap((line) => remainder(line, ruleGlyphs) ?? []),
  );
  const tables = findTables(
    allLines.flatMap((line) => line.words).filter((word) => !banded.has(word)),
    page.rules,
  );
  const taken = new Set<OcrWord>([...banded, ...tables.flatMap((table) => table.lines.flatMap((line) => line.words))]);

  const regions: PageRegion[] = [];
  const tableAt = new Map<PageRegion, number>();
  for (const block of page.blocks) {
    const lines: OcrLine[] = [];
    for (const line of block.lines) {
      const kept = remainder(line, taken);
      if (kept) lines.push(kept);
      const table = tables.find(
        (candidate) =>
          !tableAt.has(candidate) && candidate.lines.some((row) => row.words.some((word) => line.words.includes(word))),
      );
      if (table) {
        regions.push(...splitBlock(lines.splice(0), body));
        tableAt.set(table, regions.length);
        regions.push(table);
      }
    }
    regions.push(...splitBlock(lines, body));
  }
  for (const figure of figures) insertByPosition(regions, { type: 'image', bbox: figure, lines: [] });
  const header = bands.header.length ? [region('header', bands.header)] : [];
  const footer = bands.footer.length ? [region('footer', bands.footer)] : [];
  return [...header, ...attachCaptions(regions, body), ...footer];
}

const BODY_EDGE = new Set<PageRegion['type']>(['header', 'footer']);

/** Each column's horizontal extent, from its single-column cells. */
function columnExtents(table: PageRegion): { x1: number; x2: number }[] {
  const width = table.rows?.[0]?.length ?? 0;
  return Array.from({ length: width }, (_, col) => {
    const cells = (table.cells ?? []).filter((cell) => cell.col === col && cell.colSpan === 1);
    return cells.length
      ? { x1: Math.min(...cells.map((cell) => cell.bbox[0])), x2: Math.max(...cells.map((cell) => cell.bbox[2])) }
      : { x1: NaN, x2: NaN };
  });
}

/** Whether two tables have the same columns: as many, each overlapping its counterpart across the page. */
function sameColumns(a: PageRegion, b: PageRegion): boolean {
  const first = columnExtents(a);
  const second = columnExtents(b);
  return (
    first.length >= 2 &&
    first.length === second.length &&
    first.every((column, at) => column.x1 < second[at].x2 && second[at].x1 < column.x2)
  );
}

const rowKey = (row: string[]) => row.map((cell) => cell.replace(/\s+/g, ' ').trim().toLowerCase()).join('\u0000');

/**
 * Tables that run on across pages: when a page's last body region (before its footer) is a table and
 * the next page's first body region (after its header) is a table with the same columns, the second
 * continues the first (`continues` names the chain's first part). A continuing part that does not
 * repeat the header row gets it as its row 0 (with no cells: it is not on that page), so each part is
 * a whole table in itself and the joined table is the first part plus each continuing part's rows
 * after row 0. Regions are returned as given, continuing parts replaced.
 */
function joinPageTables(pages: PageRegion[][]): PageRegion[][] {
  const joined: PageRegion[][] = [];
  for (const [position, regions] of pages.entries()) {
    const previous = joined[position - 1]?.filter((region) => !BODY_EDGE.has(region.type)).at(-1);
    const first = regions.find((region) => !BODY_EDGE.has(region.type));
    if (previous?.type !== 'table' || first?.type !== 'table' || !sameColumns(previous, first)) {
      joined.push(regions);
      continue;
    }
    const root = previous.continues ?? previous;
    const header = root.rows![0];
    const repeats = rowKey(first.rows![0]) === rowKey(header);
    const continuing: PageRegion = repeats
      ? { ...first, continues: root }
      : {
          ...first,
          continues: root,
          rows: [header, ...first.rows!],
          cells: first.cells?.map((cell) => ({ ...cell, row: cell.row + 1 })),
        };
    joined.push(regions.map((region) => (region === first ? continuing : region)));
  }
  return joined;
}

/**
 * Every page cut into typed regions in reading order (see classifyRegions), running headers and
 * footers found across the pages and tables that run on from one page to the next joined (see
 * joinPageTables). `figures` per page are the pictures returned as figures; `pictures` all picture
 * areas. A page with neither blocks nor figures (text without layout) has no regions.
 */
export function documentRegions(
  pages: OcrPage[],
  drawings: { figures: BoxCoordinates[]; pictures?: BoxCoordinates[] }[],
): PageRegion[][] {
  const bands = findPageBands(pages);
  return joinPageTables(
    pages.map((page, position) => {
      const { figures, pictures } = drawings[position];
      const withLayout = page.blocks.length > 0 || figures.length > 0;
      return withLayout ? classifyRegions(page, bands[position], figures, pictures ?? figures) : [];
    }),
  );
}
