/** The list endpoints' CSV writer and whole-list reader (csv.ts). */
import { expect } from 'chai';
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
