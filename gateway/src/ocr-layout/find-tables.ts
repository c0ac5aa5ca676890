import type { BoxCoordinates, OcrLine, OcrWord } from './ocr-page.js';
import { boxHeight, makeLine, median, unionBox } from './box-geometry.js';
import type { PageRegion, TableCell } from './page-regions.js';
import type { PageRules, Rule } from './page-rules.js';
import { joinWords } from './join-words.js';

/** A gap between words wider than this many word heights separates two cells. */
const CELL_GAP = 1.2;
/** Table cells are short; prose in two columns also splits a row in two, but with long runs of words. */
const MAX_WORDS_PER_CELL = 4;

interface Cell {
  words: OcrWord[];
  x1: number;
  x2: number;
}
interface Row {
  words: OcrWord[];
  cells: Cell[];
  top: number;
  bottom: number;
}

const centreY = (word: OcrWord) => (word.bbox[1] + word.bbox[3]) / 2;

/** The page's words as visual rows, top to bottom, each split into cells at wide gaps. */
function visualRows(words: OcrWord[]): Row[] {
  const rows: OcrWord[][] = [];
  for (const word of [...words].sort((a, b) => centreY(a) - centreY(b))) {
    const row = rows[rows.length - 1];
    // Against the taller of the two: a dash or a dot is a flat box whose own half height would start a row of its own.
    const reach = Math.max(boxHeight(word.bbox), boxHeight(row?.[0].bbox ?? word.bbox)) / 2;
    if (row && Math.abs(centreY(row[0]) - centreY(word)) < reach) row.push(word);
    else rows.push([word]);
  }
  return rows.map((row) => {
    row.sort((a, b) => a.bbox[0] - b.bbox[0]);
    const height = median(row.map((word) => boxHeight(word.bbox)));
    const cells: Cell[] = [];
    for (const word of row) {
      const cell = cells[cells.length - 1];
      if (cell && word.bbox[0] - cell.x2 <= height * CELL_GAP) {
        cell.words.push(word);
        cell.x2 = Math.max(cell.x2, word.bbox[2]);
      } else cells.push({ words: [word], x1: word.bbox[0], x2: word.bbox[2] });
    }
    return {
      words: row,
      cells,
      top: Math.min(...row.map((w) => w.bbox[1])),
      bottom: Math.max(...row.map((w) => w.bbox[3])),
    };
  });
}

const overlaps = (a: { x1: number; x2: number }, b: { x1: number; x2: number }) => a.x1 < b.x2 && b.x1 < a.x2;

/** Which column each cell of a row falls in, or null when a cell spans two columns or two cells share one. */
function placeCells(row: Row, columns: { x1: number; x2: number }[]): number[] | null {
  const placed: number[] = [];
  for (const cell of row.cells) {
    const hits = columns.flatMap((column, at) => (overlaps(cell, column) ? [at] : []));
    if (hits.length > 1 || (hits.length === 1 && placed.includes(hits[0]))) return null;
    placed.push(hits[0] ?? -1);
  }
  return placed;
}

const isTableRow = (row: Row) =>
  row.cells.length >= 2 && row.cells.every((cell) => cell.words.length <= MAX_WORDS_PER_CELL);
/** A row that goes on with a table already begun may have one long cell (a comment column), if its cells keep to the table's columns. */
const mayContinue = (row: Row) =>
  row.cells.length >= 2 && row.cells.filter((cell) => cell.words.length > MAX_WORDS_PER_CELL).length <= 1;

/**
 * Whether the run's columns are columns: at least two of them, and two thirds of them, have a cell in
 * two rows or more. Justified prose in columns beside a photo has wide word gaps too, but its "cells"
 * fall in a different place on every line.
 */
function columnsRecur(placedRows: number[][], columnCount: number): boolean {
  const filled = new Array<number>(columnCount).fill(0);
  for (const placed of placedRows) for (const column of placed) filled[column]++;
  const recurring = filled.filter((count) => count >= 2).length;
  return recurring >= 2 && recurring * 3 >= columnCount * 2;
}

/** A ruled table's cells hold this many words on average at most; more is prose between rules. */
const MAX_WORDS_PER_RULED_CELL = 12;
/** Rules this close (pixels) meet; grid lines this close are one line (a double rule). */
const TOLERANCE = 6;

const crosses = (across: Rule, down: Rule) =>
  down.at >= across.from - TOLERANCE &&
  down.at <= across.to + TOLERANCE &&
  across.at >= down.from - TOLERANCE &&
  across.at <= down.to + TOLERANCE;

/** Sorted positions with those closer than TOLERANCE merged into their mean. */
function gridLines(positions: number[]): number[] {
  const lines: number[][] = [];
  for (const at of [...positions].sort((a, b) => a - b)) {
    const last = lines[lines.length - 1];
    if (last && at - last[last.length - 1] <= TOLERANCE) last.push(at);
    else lines.push([at]);
  }
  return lines.map((group) => group.reduce((sum, at) => sum + at, 0) / group.length);
}

/** The sets of rules that meet one another: each is a drawn grid, a frame or a lone underline. */
function connectedGrids(rules: PageRules): { horizontal: Rule[]; vertical: Rule[] }[] {
  const all = [
    ...rules.horizontal.map((rule) => ({ rule, across: true })),
    ...rules.vertical.map((rule) => ({ rule, across: false })),
  ];
  const parent = all.map((_, at) => at);
  const root = (at: number): number => (parent[at] === at ? at : (parent[at] = root(parent[at])));
  for (let a = 0; a < rules.horizontal.length; a++)
    for (let b = rules.horizontal.length; b < all.length; b++)
      if (crosses(all[a].rule, all[b].rule)) parent[root(a)] = root(b);
  const groups = new Map<number, { horizontal: Rule[]; vertical: Rule[] }>();
  all.forEach((entry, at) => {
    const group = groups.get(root(at)) ?? { horizontal: [], vertical: [] };
    (entry.across ? group.horizontal : group.vertical).push(entry.rule);
    groups.set(root(at), group);
  });
  return [...groups.values()];
}

const centre = (box: BoxCoordinates) => [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] as const;

/** What the engine makes of a drawn rule it reads as a glyph (`|`, `[`, `!`): no text of the cell's. */
export const RULE_GLYPHS = /^[|[\]!]+$/;
const withoutRuleGlyphs = (text: string) => text.replace(/^[|[\]]+|[|[\]]+$/g, '');

/** Words in reading order (top to bottom by line, left to right) joined as a cell's text, rules read as glyphs left out. */
function cellText(held: OcrWord[]): string {
  const words = held
    .filter((word) => !RULE_GLYPHS.test(word.text))
    .map((word) => ({ ...word, text: withoutRuleGlyphs(word.text) }))
    .filter((word) => word.text);
  const lines: OcrWord[][] = [];
  for (const word of [...words].sort((a, b) => centre(a.bbox)[1] - centre(b.bbox)[1])) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(centre(line[0].bbox)[1] - centre(word.bbox)[1]) < (word.bbox[3] - word.bbox[1]) / 2)
      line.push(word);
    else lines.push([word]);
  }
  return joinWords(lines.flatMap((line) => line.sort((a, b) => a.bbox[0] - b.bbox[0]).map((word) => word.text)));
}

/**
 * Tables drawn as a grid: rules that meet make a grid of at least two rows and two columns (the
 * grid's outer edge counts where no frame is drawn), and each word belongs to the cell its centre
 * falls in. Where no vertical rule crosses a row between two columns, those cells are one spanning
 * cell. Rows that hold no word (the gap of a double rule) are left out; a grid with fewer than two
 * rows of words or one column of words (a frame around a paragraph), or with more than 12 words a
 * cell on average (columns of prose between a rule under the header and one over the footer), is no table.
 */
function findRuledTables(words: OcrWord[], rules: PageRules): PageRegion[] {
  const tables: PageRegion[] = [];
  for (const grid of connectedGrids(rules)) {
    if (grid.horizontal.length < 2 || grid.vertical.length < 2) continue;
    const left = Math.min(...grid.horizontal.map((rule) => rule.from));
    const right = Math.max(...grid.horizontal.map((rule) => rule.to));
    const top = Math.min(...grid.vertical.map((rule) => rule.from));
    const bottom = Math.max(...grid.vertical.map((rule) => rule.to));
    const xs = gridLines([left, right, ...grid.vertical.map((rule) => rule.at)]);
    const ys = gridLines([top, bottom, ...grid.horizontal.map((rule) => rule.at)]);
    if (xs.length < 3 || ys.length < 3) continue;
    const inside = words.filter((word) => {
      const [x, y] = centre(word.bbox);
      return x > xs[0] && x < xs[xs.length - 1] && y > ys[0] && y < ys[ys.length - 1];
    });
    const dividerAt = (x: number, y: number) =>
      grid.vertical.some(
        (rule) => Math.abs(rule.at - x) <= TOLERANCE && rule.from - TOLERANCE <= y && rule.to + TOLERANCE >= y,
      );

    const cells: TableCell[] = [];
    const lines: OcrLine[] = [];
    let row = 0;
    for (let r = 0; r + 1 < ys.length; r++) {
      const middle = (ys[r] + ys[r + 1]) / 2;
      const rowCells: TableCell[] = [];
      const rowWords: OcrWord[] = [];
      for (let c = 0; c + 1 < xs.length;) {
        let end = c + 1;
        while (end + 1 < xs.length && !dividerAt(xs[end], middle)) end++;
        const bbox: BoxCoordinates = [xs[c], ys[r], xs[end], ys[r + 1]];
        const held = inside.filter((word) => {
          const [x, y] = centre(word.bbox);
          return x >= bbox[0] && x < bbox[2] && y >= bbox[1] && y < bbox[3];
        });
        rowWords.push(...held);
        rowCells.push({
          row,
          col: c,
          colSpan: end - c,
          text: cellText(held),
          bbox: bbox.map(Math.round) as BoxCoordinates,
        });
        c = end;
      }
      if (rowWords.length === 0) continue;
      cells.push(...rowCells);
      lines.push(makeLine(rowWords));
      row++;
    }
    const filled = cells.filter((cell) => cell.text);
    const columnsWithText = new Set(filled.map((cell) => cell.col));
    const wordsPerCell = lines.reduce((sum, line) => sum + line.words.length, 0) / Math.max(1, filled.length);
    // Rules around columns of prose (a gutter rule between rules under a header and over a footer) are no table.
    if (row < 2 || columnsWithText.size < 2 || wordsPerCell > MAX_WORDS_PER_RULED_CELL) continue;
    const columns = xs.length - 1;
    const rows = Array.from({ length: row }, (_, at) => {
      const texts = new Array<string>(columns).fill('');
      for (const cell of cells.filter((candidate) => candidate.row === at)) texts[cell.col] = cell.text;
      return texts;
    });
    tables.push({
      type: 'table',
      bbox: [xs[0], ys[0], xs[xs.length - 1], ys[ys.length - 1]].map(Math.round) as BoxCoordinates,
      lines,
      rows,
      cells,
      ruling: 'ruled',
    });
  }
  return tables.sort((a, b) => a.bbox[1] - b.bbox[1]);
}

/**
 * The page's tables, top to bottom: those drawn as a grid of rules (see findRuledTables), then, among
 * the other words, those found from word positions alone, whatever blocks the engine made.
 */
export function findTables(words: OcrWord[], rules?: PageRules): PageRegion[] {
  const ruled = rules ? findRuledTables(words, rules) : [];
  const taken = new Set(ruled.flatMap((table) => table.lines.flatMap((line) => line.words)));
  return [...ruled, ...findAlignedTables(words.filter((word) => !taken.has(word)))].sort(
    (a, b) => a.bbox[1] - b.bbox[1],
  );
}

/**
 * Unruled tables: runs of consecutive rows that each split into two or more short cells lining up in
 * the same columns. At least two rows, and three rows or three columns (so a pair of label/value lines
 * stays text), and columns that recur. A cell's box is its column's extent across its row's.
 */
function findAlignedTables(words: OcrWord[]): PageRegion[] {
  const rows = visualRows(words);
  const tables: PageRegion[] = [];
  let at = 0;
  while (at < rows.length) {
    if (!isTableRow(rows[at])) {
      at++;
      continue;
    }
    const columns = rows[at].cells.map((cell) => ({ x1: cell.x1, x2: cell.x2 }));
    const run: { row: Row; placed: number[] }[] = [{ row: rows[at], placed: columns.map((_, i) => i) }];
    let next = at + 1;
    while (next < rows.length) {
      const row = rows[next];
      const previous = run[run.length - 1].row;
      if (!mayContinue(row) || row.top - previous.bottom > 2.5 * boxHeight([0, previous.top, 0, previous.bottom]))
        break;
      const placed = placeCells(row, columns);
      if (!placed || (!isTableRow(row) && placed.includes(-1))) break;
      placed.forEach((column, i) => {
        const cell = row.cells[i];
        if (column < 0) {
          columns.push({ x1: cell.x1, x2: cell.x2 });
          placed[i] = columns.length - 1;
        } else
          columns[column] = { x1: Math.min(columns[column].x1, cell.x1), x2: Math.max(columns[column].x2, cell.x2) };
      });
      run.push({ row, placed });
      next++;
    }
    if (
      run.length >= 2 &&
      (run.length >= 3 || columns.length >= 3) &&
      columnsRecur(
        run.map(({ placed }) => placed),
        columns.length,
      )
    ) {
      const order = columns
        .map((column, i) => ({ column, i }))
        .sort((a, b) => a.column.x1 - b.column.x1)
        .map(({ i }) => i);
      const cellRows = run.map(({ row, placed }) =>
        order.map((column) => {
          const cell = row.cells[placed.indexOf(column)];
          return cell ? cell.words.map((word) => word.text).join(' ') : '';
        }),
      );
      const cells: TableCell[] = run.flatMap(({ row }, at) =>
        order.map((column, col) => ({
          row: at,
          col,
          colSpan: 1,
          text: cellRows[at][col],
          bbox: [columns[column].x1, row.top, columns[column].x2, row.bottom].map(Math.round) as BoxCoordinates,
        })),
      );
      const tableWords = run.flatMap(({ row }) => row.words);
      const lines: OcrLine[] = run.map(({ row }) => ({ ...lineOf(row.words), words: row.words }));
      tables.push({
        type: 'table',
        bbox: unionBox(tableWords.map((w) => w.bbox)),
        lines,
        rows: cellRows,
        cells,
        ruling: 'unruled',
      });
      at = next;
    } else at++;
  }
  return tables;
}

function lineOf(words: OcrWord[]): OcrWord {
  return {
    text: words.map((word) => word.text).join(' '),
    bbox: unionBox(words.map((word) => word.bbox)),
    confidence: words.reduce((sum, word) => sum + word.confidence, 0) / words.length,
  };
}
