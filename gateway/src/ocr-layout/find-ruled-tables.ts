import type { BoxCoordinates, OcrLine, OcrWord } from './ocr-page.js';
import type { PageRules, Rule } from './page-rules.js';
import type { PageRegion, TableCell } from './page-regions.js';
import { makeLine } from './box-geometry.js';
import { joinWords } from './join-words.js';

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
const RULE_GLYPHS = /^[|[\]!]+$/;
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
 * rows of words or one column of words (a frame around a paragraph) is no table.
 */
export function findRuledTables(words: OcrWord[], rules: PageRules): PageRegion[] {
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
    const columnsWithText = new Set(cells.filter((cell) => cell.text).map((cell) => cell.col));
    if (row < 2 || columnsWithText.size < 2) continue;
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
