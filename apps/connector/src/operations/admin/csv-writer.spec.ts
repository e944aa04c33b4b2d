import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv-writer.js';

describe('the CSV writer', () => {
  it('leaves plain cells as they are, and writes nothing for a missing value', () => {
    expect(csvCell('Red mug')).toBe('Red mug');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes cells holding a comma, a quote or a line break, doubling their quotes (RFC 4180)', () => {
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('the "big" one')).toBe('"the ""big"" one"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\r\nlf')).toBe('"cr\r\nlf"');
  });

  it('defuses text a spreadsheet would run as a formula: = + - @ (and a leading tab or return)', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // Only at the start: a formula sign inside the text is just text; numbers are numbers.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-5)).toBe('-5');
  });

  it('writes a header and rows, each line ended by CRLF', () => {
    expect(
      csvText(
        ['product_id', 'title', 'error'],
        [
          ['1', 'Mug, red', '=cmd'],
          ['2', null, 'said "no"\nthen stopped'],
        ],
      ),
    ).toBe('product_id,title,error\r\n1,"Mug, red",\'=cmd\r\n2,,"said ""no""\nthen stopped"\r\n');
  });
});
