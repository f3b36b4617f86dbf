/**
 * The path's ticks as the engine reads them, bounded by a last tick (the live workers' clock): the last
 * tick itself is readable, and so are the minute, the minute candles and the range that end on it;
 * anything that reaches one tick further has not happened yet. The bound is read again only when a
 * tick beyond the one known is asked (no clock read per tick). A quote's volume is the last minute
 * complete before its tick (none before the path's first minute).
 */
import { expect } from 'chai';
import type { CoinId } from '../../market/coins';
import { candleArrays, TICKS_PER_MINUTE, type CandleArrays, type MarketPath } from '../../market/market-path';
import { pathTicks, quoteAt, type PriceTicks } from './price-ticks';

/** A path stand-in: the price of a tick is 100 + the tick; what it is asked is not the point here. */
const PATH = {
  price: (_coinId: CoinId, tick: number) => 100 + tick,
  minuteCandles: (_coinId: CoinId, _from: number, _count: number, out: CandleArrays) => out,
  summary: (_coinId: CoinId, from: number, to: number) => ({ high: 100 + to - 1, low: 100 + from, volume: (to - from) * 10 }),
} as unknown as MarketPath;

/** The ticks up to `last` (a minute's last tick: minute 9 ends on it), counting the reads of the bound. */
function bounded(last = 10 * TICKS_PER_MINUTE - 1) {
  const clock = { last, reads: 0 };
  const ticks = pathTicks(PATH, () => {
    clock.reads++;
    return clock.last;
  });
  return { ticks, clock };
}

describe('engine: the path\'s ticks up to a last tick', function () {
  it('reads the last tick, and nothing after it', function () {
    const { ticks } = bounded(119);
    expect(ticks.price('ethereum', 119)).to.equal(219);
    expect(() => ticks.price('ethereum', 120)).to.throw(RangeError, /tick 120 .* has not happened yet/);
  });

  it('reads the minute, the minute candles and the range that end on the last tick, not one that ends a tick later', function () {
    const { ticks } = bounded(119); // minute 9 is the last complete one
    expect(ticks.minuteVolume('ethereum', 9)).to.equal(TICKS_PER_MINUTE * 10);
    expect(() => ticks.minuteVolume('ethereum', 10)).to.throw(RangeError);
    expect(() => ticks.minuteVolume('ethereum', 11)).to.throw(RangeError);
    expect(() => ticks.minuteCandles('ethereum', 8, 2, candleArrays(2))).to.not.throw();
    expect(() => ticks.minuteCandles('ethereum', 8, 3, candleArrays(3))).to.throw(RangeError);
    expect(ticks.range('ethereum', 100, 120)).to.deep.include({ high: 219, low: 200 });
    expect(() => ticks.range('ethereum', 100, 121)).to.throw(RangeError);
  });

  it('reads the bound again only for a tick beyond the one it knows', function () {
    const { ticks, clock } = bounded(119);
    for (const tick of [5, 119, 119, 60, 119]) ticks.price('ethereum', tick);
    ticks.minuteVolume('ethereum', 9);
    expect(clock.reads, 'once, for the first tick').to.equal(1);
    // Time passes: a tick beyond the known bound reads it again, and is readable once it has happened.
    clock.last = 150;
    expect(ticks.price('ethereum', 150)).to.equal(250);
    ticks.price('ethereum', 140);
    expect(clock.reads).to.equal(2);
  });

  it('quotes a tick\'s mid with the volume of the last minute complete before it, none before the first minute', function () {
    const asked: number[] = [];
    const source: PriceTicks = {
      lastTick: () => Number.MAX_SAFE_INTEGER,
      price: (_coinId, tick) => 100 + tick,
      minuteCandles: (_coinId, _from, _count, out) => out,
      minuteVolume: (_coinId, minute) => {
        asked.push(minute);
        return 1000 + minute;
      },
      range: () => ({ high: 0, low: 0 }),
    };
    // Tick 5 * 12 + 7 is in minute 5: the last complete minute is 4.
    expect(quoteAt(source, 'bitcoin', 5 * TICKS_PER_MINUTE + 7)).to.deep.include({ coinId: 'bitcoin', tick: 67, mid: 167, minuteVolumeUsd: 1004 });
    // A minute's first tick: the minute before it.
    expect(quoteAt(source, 'bitcoin', TICKS_PER_MINUTE).minuteVolumeUsd).to.equal(1000);
    expect(asked).to.deep.equal([4, 0]);
    // In the first minute there is none before: no volume, nothing asked.
    expect(quoteAt(source, 'bitcoin', 11).minuteVolumeUsd).to.equal(0);
    expect(quoteAt(source, 'bitcoin', 0).minuteVolumeUsd).to.equal(0);
    expect(asked).to.deep.equal([4, 0]);
  });
});
