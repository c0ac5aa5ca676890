import { csvCell } from '../../lib/csv';

/** A cell that is a plain decimal number: a spreadsheet reads it as that number, never as a formula. */
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;

/**
 * A recognised table as CSV (RFC 4180 quoting, CRLF line ends). Cells are text, so text a
 * spreadsheet would run as a formula gets a leading `'` (see csvCell), except plain numbers such as
 * `-0.5`, which stay as written (leading and trailing zeros kept).
 */
export function tableCsv(rows: readonly (readonly string[])[]): string {
  return rows
    .map((row) => row.map((text) => (PLAIN_NUMBER.test(text) ? text : csvCell(text))).join(',') + '\r\n')
    .join('');
}
