import type { OcrTableCell } from '../wire/ocr-table-schema.js';
import { boxCorners } from './box-geometry.js';
import type { TableCell } from './page-regions.js';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A table as GitHub-flavoured Markdown, its first row the header. */
export function markdownTable(rows: string[][]): string {
  const width = Math.max(...rows.map((row) => row.length));
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(row[i] ?? '')).join(' | ')} |`;
  return [line(rows[0]), `|${' --- |'.repeat(width)}`, ...rows.slice(1).map(line)].join('\n');
}

/** A table as HTML, its first row the header. */
export function htmlTable(rows: string[][]): string {
  const row = (cells: string[], tag: 'th' | 'td') =>
    `<tr>${cells.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('')}</tr>`;
  return `<table>${row(rows[0], 'th')}${rows
    .slice(1)
    .map((cells) => row(cells, 'td'))
    .join('')}</table>`;
}

/** A table's cells as the answers carry them (`col_span`, corner coordinates). */
export const wireTableCells = (cells: TableCell[]): OcrTableCell[] =>
  cells.map((cell) => ({
    row: cell.row,
    col: cell.col,
    col_span: cell.colSpan,
    text: cell.text,
    ...boxCorners(cell.bbox),
  }));
