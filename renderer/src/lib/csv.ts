/** Characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text that a
 * spreadsheet would run as a formula (=, +, -, @, tab or CR first) gets a leading `'`, so it opens
 * as the text it is. Numbers are the console's own and stay numbers (a negative one included).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows of cells as CSV lines, each ended by `newline`. */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[], newline = '\r\n'): string {
  return rows.map((row) => row.map(csvCell).join(',') + newline).join('');
}
