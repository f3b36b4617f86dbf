/** The list endpoints' CSV writer and whole-list reader (csv.ts). */
import { expect } from 'chai';
import Papa from 'papaparse';
import { CSV_READ_ROWS, readWholeList, writeCsv } from './csv';

describe('list CSV (query-api/src/csv.ts)', function () {
  it('quotes, writes CRLF, escapes formula cells and leaves numbers as numbers', function () {
    const csv = writeCsv(['name', 'pnl', 'note'], [
      ['=cmd()', -12.34, 'a, "quoted"\nline'],
      ['+1', 0, '@SUM(A1)'],
      ['-x', null, true],
    ]);
    // The line break inside a quoted cell stays as it is; rows end with CRLF.
    expect(csv.split('\r\n')).to.deep.equal(['name,pnl,note', `"'=cmd()",-12.34,"a, ""quoted""\nline"`, `"'+1",0,"'@SUM(A1)"`, `"'-x",,true`]);
  });

  // Issue 16 item 15: papaparse's own pattern (/^[=+\-@\t\r].*$/) needs the whole cell to match
  // `.*$`, and `.` stops at a line break, U+2028 or U+2029: such a cell went out unescaped.
  for (const [name, cell] of [
    ['a line separator (U+2028)', '=HYPERLINK("https://evil.example","x")\u2028y'],
    ['a paragraph separator (U+2029)', '+1\u2029'],
    ['a line feed', '@SUM(A1)\nmore'],
    ['a carriage return', '-2+3\r'],
    ['a tab first', '\t=1+1'],
    ['a carriage return first', '\r=1+1'],
    ['a full-width equals sign', '\uff1d1+1'],
    ['a full-width plus', '\uff0b1'],
    ['a full-width minus', '\uff0d1'],
    ['a full-width at', '\uff20SUM(A1)'],
  ] as const) {
    it(`escapes a formula cell whatever follows its first character: ${name}`, function () {
      const csv = writeCsv(['name'], [[cell]]);
      const [, row] = csv.split('\r\n');
      expect(row!.startsWith(`"'`), JSON.stringify(row)).to.equal(true);
      // Read back: the cell is the text with a leading quote, nothing else changed.
      expect(Papa.parse<string[]>(csv).data[1]).to.deep.equal([`'${cell}`]);
    });
  }

  it('leaves other text alone, and numbers (a negative P&L too) as numbers', function () {
    const csv = writeCsv(['a', 'b', 'c', 'd'], [['Ann\u2028Lee', ' =1', -5, "'=already"]]);
    expect(Papa.parse<string[]>(csv).data[1]).to.deep.equal(['Ann\u2028Lee', ' =1', '-5', "'=already"]);
  });

  it('reads a whole list page by page until a short page, and stops at the cap', async function () {
    const items = Array.from({ length: 2_500 }, (_, i) => i);
    const reads: Array<[number, number]> = [];
    const readRows = async (skip: number, limit: number) => {
      reads.push([skip, limit]);
      return items.slice(skip, skip + limit);
    };
    expect(await readWholeList(readRows)).to.deep.equal(items);
    expect(reads).to.deep.equal([
      [0, CSV_READ_ROWS],
      [1_000, CSV_READ_ROWS],
      [2_000, CSV_READ_ROWS],
    ]);
    reads.length = 0;
    expect(await readWholeList(readRows, 1_200)).to.deep.equal(items.slice(0, 1_200));
    expect(reads).to.deep.equal([
      [0, 1_000],
      [1_000, 200],
    ]);
  });
});
