/** The coin catalogue: the spec's ten coins (section 3), found by id or by symbol in any case. */
import { expect } from 'chai';
import { btcBeta, coinById, coinIdSchema, coins, coinSymbolSchema, DEFAULT_COIN_ID, DEFAULT_COIN_SYMBOL, findCoinById, findCoinBySymbol } from './coins';

describe('coin catalogue', function () {
  it('holds the ten coins of the spec, ids to symbols', function () {
    expect(coins.map((c) => [c.id, c.symbol])).to.deep.equal([
      ['ethereum', 'ETH'],
      ['bitcoin', 'BTC'],
      ['binancecoin', 'BNB'],
      ['cardano', 'ADA'],
      ['solana', 'SOL'],
      ['polygon', 'MATIC'],
      ['chainlink', 'LINK'],
      ['avalanche-2', 'AVAX'],
      ['polkadot', 'DOT'],
      ['uniswap', 'UNI'],
    ]);
    expect([DEFAULT_COIN_ID, DEFAULT_COIN_SYMBOL]).to.deep.equal(['ethereum', 'ETH']);
  });

  it('gives every coin a name, an icon, a colour and plausible simulation figures', function () {
    for (const c of coins) {
      expect(c.name.trim(), c.id).to.not.equal('');
      expect(c.icon.trim(), c.id).to.not.equal('');
      expect(c.color, c.id).to.match(/^#[0-9A-Fa-f]{6}$/);
      expect(c.simulation.startingPriceUsd, c.id).to.be.greaterThan(0);
      expect(c.simulation.annualVolatility, c.id).to.be.within(0.2, 1.5);
      expect(c.simulation.btcCorrelation, c.id).to.be.within(0, 1);
      expect(c.simulation.dailyVolumeUsd, c.id).to.be.greaterThan(0);
    }
    expect(coinById('bitcoin').simulation.btcCorrelation).to.equal(1);
    expect(btcBeta(coinById('bitcoin'))).to.equal(1);
    expect(btcBeta(coinById('solana'))).to.be.closeTo((0.76 * 0.95) / 0.6, 1e-12);
  });

  it('finds a coin by id exactly and by symbol in any case', function () {
    expect(findCoinById('avalanche-2')?.symbol).to.equal('AVAX');
    expect(findCoinById('Avalanche-2')).to.equal(undefined);
    expect(findCoinById('dogecoin')).to.equal(undefined);
    expect(findCoinBySymbol('eth')?.id).to.equal('ethereum');
    expect(findCoinBySymbol(' Matic ')?.id).to.equal('polygon');
    expect(findCoinBySymbol('DOGE')).to.equal(undefined);
  });

  it('validates ids and symbols with readable messages', function () {
    expect(coinIdSchema.parse('cardano')).to.equal('cardano');
    const badId = coinIdSchema.safeParse('dogecoin');
    expect(badId.success).to.equal(false);
    expect(badId.error?.issues[0]?.message).to.equal('unknown coin id "dogecoin"');
    expect(coinSymbolSchema.parse('sol')).to.equal('SOL');
    const badSymbol = coinSymbolSchema.safeParse('doge');
    expect(badSymbol.success).to.equal(false);
    expect(badSymbol.error?.issues[0]?.message).to.equal('unknown coin symbol "DOGE"');
    expect(coinSymbolSchema.safeParse(42).success).to.equal(false);
  });
});
