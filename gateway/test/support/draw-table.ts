/**
 * Test tooling: draws tables (cell texts row by row, the first row the header) on pages, ruled as a
 * grid or unruled (columns lined up, a rule under the header or none), with a heading and a
 * paragraph around them, and returns each cell's text and box. Used by the table tests and the OCR
 * benchmark's table set.
 */
import type { BoxCoordinates } from '../../src/providers/contracts/ocr.js';
import {
  drawTextImage,
  textWidth,
  type Degradation,
  type DrawnImage,
  type FontKind,
  type TextLineSpec,
} from './draw-text.js';

/** `grid`: every row and column ruled; `header_rule`: only a rule under the header; `unruled`: no line at all. */
export type TableStyle = 'grid' | 'header_rule' | 'unruled';

export interface TruthCell {
  row: number;
  col: number;
  text: string;
  bbox: BoxCoordinates;
}

export interface DrawnTablePage extends DrawnImage {
  /** The cells drawn on this page, row by row (`row` counts from this page's first drawn row). */
  cells: TruthCell[];
  /** The cell texts drawn on this page, row by row. */
  rows: string[][];
}

export interface TablePageOptions extends Degradation {
  style: TableStyle;
  font?: FontKind;
  /** Text size in pixels (default 20). */
  size?: number;
  height?: number;
  /** A heading and a paragraph drawn above the table (none: the table starts at the top). */
  heading?: string;
  paragraph?: string[];
  /** Lines drawn below the table. */
  after?: string[];
  /** Page width (default: A4 at 150 DPI, wider when the table needs it). */
  width?: number;
  /** Column widths (pixels); default: the widest text of each column plus padding. */
  columnWidths?: number[];
}

/** Each column's width as drawTablePage draws it: its widest text, plus padding in a grid. */
export function tableColumnWidths(
  rows: string[][],
  options: Pick<TablePageOptions, 'style' | 'font' | 'size'>,
): number[] {
  const size = options.size ?? 20;
  const padX = options.style === 'grid' ? size * 0.6 : 0;
  const columns = Math.max(...rows.map((row) => row.length));
  return Array.from(
    { length: columns },
    (_, col) => Math.max(...rows.map((row) => textWidth(row[col] ?? '', size, options.font ?? 'sans'))) + 2 * padX,
  );
}

/** Draws `rows` as a table on one page. */
export async function drawTablePage(rows: string[][], options: TablePageOptions): Promise<DrawnTablePage> {
  const size = options.size ?? 20;
  const font = options.font ?? 'sans';
  const height = options.height ?? 1754;
  const left = 80;
  const padX = options.style === 'grid' ? size * 0.6 : 0;
  const gap = options.style === 'grid' ? 0 : size * 2;
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = options.columnWidths ?? tableColumnWidths(rows, options);
  const xs = widths.reduce<number[]>((at, w, i) => [...at, at[i] + w + gap], [left]);
  // An A4 page at 150 DPI, or wider for a wide table: no cell is cut off at the page's edge.
  const width = options.width ?? Math.max(1240, Math.ceil(xs[columns - 1] + widths[columns - 1] + left));
  const lines: TextLineSpec[] = [];
  let y = 90;
  if (options.heading) {
    lines.push({ text: options.heading, x: left, y, size: Math.round(size * 1.6) });
    y += size * 2.4;
  }
  for (const text of options.paragraph ?? []) {
    lines.push({ text, x: left, y, size });
    y += size * 1.5;
  }
  if (options.heading || options.paragraph) y += size;
  const rowHeight = size * (options.style === 'grid' ? 1.9 : 1.6);
  const top = y;
  const cells: TruthCell[] = [];
  const rules: BoxCoordinates[] = [];
  rows.forEach((row, r) => {
    const rowTop = top + r * rowHeight;
    const baseline = rowTop + rowHeight / 2 + size * 0.35;
    row.forEach((text, col) => {
      const x = xs[col] + padX;
      if (text) lines.push({ text, x, y: baseline, size, bold: r === 0 });
      cells.push({ row: r, col, text, bbox: [xs[col], rowTop, xs[col] + widths[col], rowTop + rowHeight] });
    });
  });
  const bottom = top + rows.length * rowHeight;
  const right = xs[columns - 1] + widths[columns - 1];
  if (options.style === 'grid') {
    for (let r = 0; r <= rows.length; r++) rules.push([left, top + r * rowHeight, right, top + r * rowHeight]);
    for (let c = 0; c <= columns; c++) {
      const x = c === columns ? right : xs[c];
      rules.push([x, top, x, bottom]);
    }
  } else if (options.style === 'header_rule') {
    rules.push([left, top + rowHeight - 2, right, top + rowHeight - 2]);
  }
  let after = bottom + size * 2;
  for (const text of options.after ?? []) {
    lines.push({ text, x: left, y: after, size });
    after += size * 1.5;
  }
  const drawn = await drawTextImage(lines, { ...options, width, height, font, rules });
  return { ...drawn, cells, rows };
}

/** Whitespace collapsed and trimmed: how cell texts are compared. */
export const normaliseCell = (text: string) => text.replace(/\s+/g, ' ').trim();
