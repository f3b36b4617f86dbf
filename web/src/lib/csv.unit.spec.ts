/** The web app's one CSV writer (lib/csv.ts): formula cells escaped by their first character alone. */
import { expect } from 'chai';
import Papa from 'papaparse';
import { writeCsv } from './csv';

describe('web CSV writer (lib/csv.ts)', () => {
  // papaparse's own pattern needs the whole cell to match `.*$`, which stops at a line break, U+2028
  // or U+2029: such a cell went out unescaped (issue 16 item 15).
  for (const [name, cell] of [
    ['a line separator (U+2028)', '=HYPERLINK("https://evil.example","x")\u2028y'],
    ['a paragraph separator (U+2029)', '+1\u2029'],
    ['a line feed', '@SUM(A1)\nmore'],
    ['a carriage return', '-2+3\r'],
    ['a full-width equals sign', '\uff1d1+1'],
    ['a full-width at', '\uff20SUM(A1)'],
  ] as const) {
    it(`escapes a formula cell whatever follows its first character: ${name}`, () => {
      const csv = writeCsv(['note'], [[cell]]);
      expect(Papa.parse<string[]>(csv).data[1]).to.deep.equal([`'${cell}`]);
    });
  }

  it('leaves other text and numbers alone (a negative P&L stays a number)', () => {
    const csv = writeCsv(['a', 'b', 'c'], [['Ann\u2028Lee', -12.34, null]]);
    expect(csv.split('\r\n')[1]).to.equal('Ann\u2028Lee,-12.34,');
  });
});
