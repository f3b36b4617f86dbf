/** The read side's ascending order (order.ts): by the key's own `<`, equal keys left as they were. */
import { expect } from 'chai';
import { ascendingBy } from './order';

describe('ascending order by a key', function () {
  const bySymbol = ascendingBy((x: { symbol: string }) => x.symbol);

  it('answers -1 below, 1 above and 0 for the same key', function () {
    expect([bySymbol({ symbol: 'BTC' }, { symbol: 'ETH' }), bySymbol({ symbol: 'ETH' }, { symbol: 'BTC' }), bySymbol({ symbol: 'ETH' }, { symbol: 'ETH' })]).to.deep.equal([-1, 1, 0]);
  });

  it('sorts strings by code unit, not by locale: upper case before lower case, "10" before "9"', function () {
    const sorted = ['b', 'B', 'a', '9', '10', 'A'].map((symbol) => ({ symbol })).sort(bySymbol).map((x) => x.symbol);
    expect(sorted).to.deep.equal(['10', '9', 'A', 'B', 'a', 'b']);
  });

  it('sorts numbers and bigints by value, and keeps items of one key in their order (a stable sort)', function () {
    const rows = [3, 1, 2, 1].map((n, i) => ({ n, i }));
    expect(rows.sort(ascendingBy((r) => r.n)).map((r) => r.i)).to.deep.equal([1, 3, 2, 0]);
    expect([10n, 9n, 100n].sort(ascendingBy((x) => x))).to.deep.equal([9n, 10n, 100n]);
  });
});
