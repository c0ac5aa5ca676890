import { describe, expect, it } from 'vitest';
import { tableCsv } from '../../../src/features/ocr/table-csv';

describe('tableCsv', () => {
  it('writes a recognised table as RFC 4180 CSV: commas, quotes and line breaks quoted, CRLF line ends', () => {
    expect(
      tableCsv([
        ['Countries', 'Comments'],
        ['AE,OM,RE,SC,TF', 'the "Gulf"'],
        ['AQ', 'two\nlines'],
      ]),
    ).toBe('Countries,Comments\r\n"AE,OM,RE,SC,TF","the ""Gulf"""\r\nAQ,"two\nlines"\r\n');
  });

  it('keeps plain numbers as written and defuses text a spreadsheet would run as a formula', () => {
    expect(tableCsv([['-0.50', '007', '+12', '+4230+00131', '=SUM(A1)', '-9.99']])).toBe(
      "-0.50,007,+12,'+4230+00131,'=SUM(A1),-9.99\r\n",
    );
  });
});
