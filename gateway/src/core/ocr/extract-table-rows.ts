import type { OcrPage, OcrWord } from '../../providers/contracts/ocr.js';
import { coerceValue, type PropertySchema } from './coerce-value.js';
import { labelTokens } from './label-tokens.js';
import { fieldLabel, labelScore, labelTokensScore } from './match-label.js';

const centreY = (w: OcrWord): number => (w.bbox[1] + w.bbox[3]) / 2;
const centreX = (w: OcrWord): number => (w.bbox[0] + w.bbox[2]) / 2;

/** Words of a page grouped into visual rows (top to bottom, left to right), whatever blocks Tesseract made. */
function pageRows(page: OcrPage): OcrWord[][] {
  const words = page.blocks.flatMap((b) => b.lines.flatMap((l) => l.words)).sort((a, b) => centreY(a) - centreY(b));
  const rows: OcrWord[][] = [];
  for (const word of words) {
    const row = rows[rows.length - 1];
    const height = word.bbox[3] - word.bbox[1];
    if (row && Math.abs(centreY(row[0]) - centreY(word)) < height / 2) row.push(word);
    else rows.push([word]);
  }
  return rows.map((row) => row.sort((a, b) => a.bbox[0] - b.bbox[0]));
}

/** Told how many label comparisons were just made; now and then answers a promise of the event loop's next turn, to await. */
export type Pace = (comparisons: number) => Promise<void> | undefined;

interface Column {
  name: string;
  x1: number;
  x2: number;
}

/** The highest or lowest edge of a row's words (`pick`: Math.max or Math.min), without spreading a row of any length into arguments. */
const rowEdge = (row: OcrWord[], edge: (word: OcrWord) => number, pick: (a: number, b: number) => number): number =>
  row.map(edge).reduce(pick);

/**
 * Columns of a header row: for each item property, the run of 1–3 adjacent header words that best names
 * it. The runs' tokens are worked out once per row (a word's tokens joined are its run's), not once per property.
 */
function headerColumns(row: OcrWord[], properties: Record<string, PropertySchema>): Column[] {
  const columns: Column[] = [];
  const wordTokens = row.map((word) => labelTokens(word.text));
  const runs = row.flatMap((_, i) =>
    [1, 2, 3].filter((n) => i + n <= row.length).map((n) => ({ i, n, tokens: wordTokens.slice(i, i + n).flat() })),
  );
  for (const name of Object.keys(properties)) {
    const field = fieldLabel(name);
    let best: Column | undefined;
    let bestScore = 0.5;
    for (const { i, n, tokens } of runs) {
      const score = labelTokensScore(tokens, field);
      if (score > bestScore) {
        bestScore = score;
        best = { name, x1: row[i].bbox[0], x2: row[i + n - 1].bbox[2] };
      }
    }
    if (best && !columns.some((c) => c.x1 === best.x1)) columns.push(best);
  }
  return columns.sort((a, b) => a.x1 - b.x1);
}

const STOP = fieldLabel('total');
const SUBTOTAL = fieldLabel('subtotal');

/**
 * Line items from a table: finds the header row that names at least two of the item's properties,
 * then reads the rows below it cell by cell (a word belongs to the column whose span holds its centre;
 * spans split halfway between headers) until a totals row, a row with fewer than two cells, or a gap.
 */
export async function extractTableRows(
  pages: OcrPage[],
  items: PropertySchema,
  pace: Pace,
): Promise<Record<string, unknown>[] | null> {
  const properties = items.properties ?? {};
  const propertyCount = Object.keys(properties).length;
  for (const page of pages) {
    const rows = pageRows(page);
    for (let h = 0; h < rows.length; h++) {
      const turn = pace(rows[h].length * 3 * propertyCount);
      if (turn) await turn;
      const columns = headerColumns(rows[h], properties);
      if (columns.length < 2) continue;
      const bounds = columns.map((c, i) => [
        i === 0 ? -Infinity : (columns[i - 1].x2 + c.x1) / 2,
        i === columns.length - 1 ? Infinity : (c.x2 + columns[i + 1].x1) / 2,
      ]);
      const out: Record<string, unknown>[] = [];
      let previousBottom = rowEdge(rows[h], (w) => w.bbox[3], Math.max);
      const rowHeight = rowEdge(rows[h], (w) => w.bbox[3] - w.bbox[1], Math.max);
      for (const row of rows.slice(h + 1)) {
        const top = rowEdge(row, (w) => w.bbox[1], Math.min);
        if (top - previousBottom > 3 * rowHeight) break;
        const first = row[0].text;
        if (labelScore(first, STOP) >= 0.8 || labelScore(first, SUBTOTAL) >= 0.8) break;
        const cells = new Map<string, string[]>();
        for (const word of row) {
          const at = bounds.findIndex(([from, to]) => centreX(word) >= from && centreX(word) < to);
          if (at < 0) continue;
          const name = columns[at].name;
          cells.set(name, [...(cells.get(name) ?? []), word.text]);
        }
        if (cells.size < 2) break;
        const item: Record<string, unknown> = {};
        for (const name of Object.keys(properties)) {
          const text = cells.get(name)?.join(' ');
          item[name] = text === undefined ? null : (coerceValue(text, properties[name], name) ?? null);
        }
        out.push(item);
        previousBottom = rowEdge(row, (w) => w.bbox[3], Math.max);
      }
      if (out.length > 0) return out;
    }
  }
  return null;
}
