/**
 * What the simulated market says when it is asked for what it does not have: each refusal names what
 * was wrong and the value it got (an API answers with these messages), before any price is computed.
 */
import { expect } from 'chai';
import { candleArrays, MarketPath, tickAt, TICKS_PER_HOUR } from './market-path';
import { MarketSimulation } from './simulation';
import { normalQuantile } from './normal-quantile';

const KEY = Uint32Array.from([11, 0x9e3779b9, 0x243f6a88, 3, 4, 5, 6, 0x85a308d3]);

describe('simulated market refusals', function () {
  it('names a time that is not one, and a tick before the epoch or not whole', function () {
    expect(() => tickAt(Number.NaN)).to.throw(RangeError, /^not a time: NaN$/);
    const path = new MarketPath(KEY);
    expect(() => path.hourWithTicks('bitcoin', -1, candleArrays(60), new Float64Array(TICKS_PER_HOUR))).to.throw(RangeError, /^not a tick of the simulated market: -720$/);
    expect(() => path.summary('bitcoin', 0.5, 2)).to.throw(RangeError, /^not a tick of the simulated market: 0\.5$/);
  });

  it('refuses an hour without room for it and a span without a tick', function () {
    const path = new MarketPath(KEY);
    expect(() => path.hourWithTicks('bitcoin', 0, candleArrays(59), new Float64Array(TICKS_PER_HOUR))).to.throw(RangeError, /^an hour needs room for 60 candles and 720 ticks$/);
    expect(() => path.hourWithTicks('bitcoin', 0, candleArrays(60), new Float64Array(TICKS_PER_HOUR - 1))).to.throw(RangeError, /^an hour needs room for 60 candles and 720 ticks$/);
    expect(() => path.summary('bitcoin', 5, 5)).to.throw(RangeError, /^a span needs at least one tick$/);
    expect(() => path.summary('bitcoin', 5, 4)).to.throw(RangeError, /^a span needs at least one tick$/);
  });

  it('names a candle interval that is not a whole number of minutes, and a probability outside (0, 1)', function () {
    const sim = new MarketSimulation(KEY, { fresh: true });
    const at = Date.UTC(2020, 0, 2);
    expect(() => sim.candles('bitcoin', at, at, 0)).to.throw(RangeError, /^interval must be a whole number of minutes, got 0$/);
    expect(() => sim.candles('bitcoin', at, at, 1.5)).to.throw(RangeError, /^interval must be a whole number of minutes, got 1\.5$/);
    expect(() => normalQuantile(1.5)).to.throw(RangeError, /^a probability is between 0 and 1, got 1\.5$/);
    expect(() => normalQuantile(Number.NaN)).to.throw(RangeError, /^a probability is between 0 and 1, got NaN$/);
  });
});
