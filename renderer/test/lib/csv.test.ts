import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../src/lib/csv';

describe('csvCell', () => {
  it('defuses text a spreadsheet would run as a formula (=, +, -, @, tab, CR first)', () => {
    expect(csvCell('=HYPERLINK("https://evil.example","x")')).toBe(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    expect(csvCell('+1+cmd|calc')).toBe("'+1+cmd|calc");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('leaves ordinary text and numbers (negative ones too) as they are', () => {
    expect(csvCell('svc-large-3')).toBe('svc-large-3');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-0.25)).toBe('-0.25');
    expect(csvCell(null)).toBe('');
    expect(csvCell('has, a "quote"')).toBe('"has, a ""quote"""');
  });

  it('joins rows with CRLF by default', () => {
    expect(
      toCsv([
        ['a', 1],
        ['=b', -2],
      ]),
    ).toBe("a,1\r\n'=b,-2\r\n");
  });
});
