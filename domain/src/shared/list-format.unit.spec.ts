/** `?format=` of the list endpoints: json or csv, or left out (the Accept header decides); anything else is refused saying so. */
import { expect } from 'chai';
import { listFormatParam } from './list-format';

describe('list format parameter', function () {
  it('takes json and csv, and leaves the choice open when absent', function () {
    expect(listFormatParam.parse('json')).to.equal('json');
    expect(listFormatParam.parse('csv')).to.equal('csv');
    expect(listFormatParam.parse(undefined)).to.equal(undefined);
  });

  it('refuses any other format with "must be json or csv"', function () {
    for (const format of ['xml', 'CSV', '']) {
      const result = listFormatParam.safeParse(format);
      expect(result.success, format).to.equal(false);
      expect(result.error?.issues.map((i) => i.message), format).to.deep.equal(['must be json or csv']);
    }
  });
});
