import type { OcrTableCell } from '../wire/ocr-table-schema.js';
import { boxCorners } from './box-corners.js';
import type { TableCell } from './page-regions.js';

/** A table's cells as the answers carry them (`col_span`, corner coordinates). */
export const wireTableCells = (cells: TableCell[]): OcrTableCell[] =>
  cells.map((cell) => ({
    row: cell.row,
    col: cell.col,
    col_span: cell.colSpan,
    text: cell.text,
    ...boxCorners(cell.bbox),
  }));
