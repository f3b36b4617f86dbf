/**
 * Fills like an exchange's: the half spread of each coin from the catalogue, the square-root impact
 * (its law, its figures, its cap and its fallback volume), and the fill price on either side.
 */
import { expect } from 'chai';
import { coins, HALF_SPREAD_BPS, halfSpreadOf } from '../../market/coins';
import { executionOf, fillPrice, IMPACT_COEFFICIENT, MAX_IMPACT, marketFill, priceImpact, sigmaPerMinute, typicalMinuteVolumeUsd } from './fills';

describe('engine: fills', function () {
  it('has a half spread for every coin of the catalogue: 0.5 bp for bitcoin and ether, more for the smaller coins', function () {
    for (const c of coins) expect(HALF_SPREAD_BPS[c.id], c.id).to.be.within(0.5, 5);
    expect(halfSpreadOf('bitcoin')).to.equal(0.00005);
    expect(halfSpreadOf('ethereum')).to.equal(0.00005);
    for (const c of coins) expect(halfSpreadOf(c.id), c.id).to.be.at.least(halfSpreadOf('bitcoin'));
    expect(halfSpreadOf('uniswap')).to.be.greaterThan(halfSpreadOf('solana'));
  });

  it('prices a buy above the mid and a sell below it by the half spread plus the impact', function () {
    expect(fillPrice(100, 'BUY', 0.0002, 0.0001)).to.be.closeTo(100.03, 1e-12);
    expect(fillPrice(100, 'SELL', 0.0002, 0.0001)).to.be.closeTo(99.97, 1e-12);
    expect(fillPrice(100, 'BUY', 0, 0)).to.equal(100);
  });

  it('takes the impact by the square-root law: k x the minute sigma x sqrt(notional / minute volume)', function () {
    const sigma = 0.6 / Math.sqrt(365 * 1440);
    expect(sigmaPerMinute('bitcoin')).to.be.closeTo(sigma, 1e-15);
    expect(IMPACT_COEFFICIENT).to.equal(1);
    expect(priceImpact('bitcoin', 10_000, 1_000_000)).to.be.closeTo(sigma * 0.1, 1e-15);
    // Four times the order, twice the impact; four times the volume, half.
    expect(priceImpact('bitcoin', 40_000, 1_000_000)).to.be.closeTo(2 * priceImpact('bitcoin', 10_000, 1_000_000), 1e-15);
    expect(priceImpact('bitcoin', 10_000, 4_000_000)).to.be.closeTo(priceImpact('bitcoin', 10_000, 1_000_000) / 2, 1e-15);
    expect(priceImpact('bitcoin', 0, 1_000_000)).to.equal(0);
  });

  it('falls back to the catalogue\'s typical minute when the volume is unknown, and caps the impact at 10 %', function () {
    const typical = typicalMinuteVolumeUsd('uniswap');
    expect(typical).to.be.closeTo(2e8 / 1440, 1e-6);
    for (const unknown of [0, Number.NaN, -5, Number.POSITIVE_INFINITY]) expect(priceImpact('uniswap', 5000, unknown), String(unknown)).to.equal(priceImpact('uniswap', 5000, typical));
    expect(MAX_IMPACT).to.equal(0.1);
    expect(priceImpact('uniswap', 1e12, 1)).to.equal(MAX_IMPACT);
    expect(marketFill('uniswap', 'SELL', 8, 1e12, 1).price).to.be.greaterThan(0);
  });

  it('costs a bot-sized order a fraction of a basis point at the typical minute, a large one more (the figures the README states)', function () {
    const bp = (coinId: 'bitcoin' | 'uniswap', usd: number) => priceImpact(coinId, usd, typicalMinuteVolumeUsd(coinId)) * 1e4;
    expect(bp('bitcoin', 500)).to.be.closeTo(0.04, 0.005);
    expect(bp('uniswap', 500)).to.be.closeTo(0.74, 0.01);
    expect(bp('bitcoin', 10_000)).to.be.closeTo(0.18, 0.005);
    expect(bp('uniswap', 10_000)).to.be.closeTo(3.33, 0.01);
  });

  it('records what an order met: the mid, the costs, when it filled, and for a bot order when it was meant to and the delay', function () {
    const { price, execution } = executionOf('ethereum', 'BUY', 3000, 0.5, { filledAt: '2026-01-05T10:00:10.000Z', minuteVolumeUsd: 2e6, intendedAt: '2026-01-05T10:00:05.000Z' });
    const impact = sigmaPerMinute('ethereum') * Math.sqrt(1500 / 2e6);
    expect(execution).to.deep.equal({ mid: 3000, halfSpread: 0.00005, impact, filledAt: '2026-01-05T10:00:10.000Z', intendedAt: '2026-01-05T10:00:05.000Z', delayMs: 5000 });
    expect(price).to.equal(3000 * (1 + 0.00005 + impact));
    const close = executionOf('ethereum', 'SELL', 2900, 0.5, { filledAt: '2026-01-05T11:00:00.000Z', minuteVolumeUsd: 2e6, level: 2940 });
    expect(close.execution).to.include({ mid: 2900, level: 2940 });
    expect(close.execution).to.not.have.property('delayMs');
    expect(close.price).to.be.lessThan(2900);
  });
});
