/**
 * What a market order pays on top of the mid price: each coin's half spread as a fraction of the mid
 * (basis points / 10,000), and the catalogue refusing a coin it does not hold by name.
 */
import { expect } from 'chai';
import { type CoinId, coinById, coinIds, HALF_SPREAD_BPS, halfSpreadOf } from './coins';

describe('coin half spreads', function () {
  it('turns basis points into a fraction of the mid: 0.5 bp is 0.00005, 3 bp is 0.0003', function () {
    expect(halfSpreadOf('bitcoin')).to.be.closeTo(0.00005, 1e-18);
    expect(halfSpreadOf('binancecoin')).to.be.closeTo(0.0001, 1e-18);
    expect(halfSpreadOf('uniswap')).to.be.closeTo(0.0003, 1e-18);
  });

  it('has a half spread for every coin, below 0.1 % of the mid', function () {
    for (const id of coinIds) {
      expect(halfSpreadOf(id), id).to.be.closeTo(HALF_SPREAD_BPS[id] / 10_000, 1e-18);
      expect(halfSpreadOf(id), id).to.be.above(0).and.below(0.001);
    }
  });

  it('names an unknown coin id in the error', function () {
    expect(() => coinById('dogecoin' as CoinId)).to.throw(Error, 'no coin dogecoin');
  });
});
