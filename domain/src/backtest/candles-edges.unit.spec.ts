/**
 * loadCandles on a made-up minute source: which widths are allowed, how minutes fold into wider
 * candles (open of the first, highest high, lowest low, close of the last, volumes added), which
 * minutes are read (whole hours at a time, or one wide candle at a time, never an empty read), and
 * indexAtOrAfter's first candle at or after a time.
 */
import { expect } from 'chai';
import type { CoinId } from '../market/coins';
import { MINUTE_MS, SIMULATION_EPOCH_MS, type CandleArrays } from '../market/market-path';
import { indexAtOrAfter, loadCandles, type Candles, type MinuteCandleSource } from './candles';

/** Minute m of the made-up path: its highs and lows wander so the widest is not always the last minute. */
const minute = (m: number) => {
  const open = 100 + m;
  return { time: SIMULATION_EPOCH_MS + m * MINUTE_MS, open, high: open + 1 + (m % 3), low: open - 1 - (m % 4), close: open + 0.5, volume: 1 + (m % 2) };
};

class FakeSource implements MinuteCandleSource {
  readonly reads: Array<[number, number]> = [];
  minuteCandles(_coinId: CoinId, from: number, count: number, out: CandleArrays): CandleArrays {
    this.reads.push([from, count]);
    for (let i = 0; i < count; i++) {
      const c = minute(from + i);
      out.time[i] = c.time;
      out.open[i] = c.open;
      out.high[i] = c.high;
      out.low[i] = c.low;
      out.close[i] = c.close;
      out.volume[i] = c.volume;
    }
    return out;
  }
}

/** The candles expected by the folding rule, from the minutes themselves: `count` candles of `width` from minute `first`. */
function expected(first: number, count: number, width: number) {
  const rows = Array.from({ length: count }, (_, i) => {
    const ms = Array.from({ length: width }, (_, k) => minute(first + i * width + k));
    return { time: ms[0]!.time, open: ms[0]!.open, high: Math.max(...ms.map((x) => x.high)), low: Math.min(...ms.map((x) => x.low)), close: ms[width - 1]!.close, volume: ms.reduce((s, x) => s + x.volume, 0) };
  });
  return { length: count, widthMinutes: width, time: rows.map((r) => r.time), open: rows.map((r) => r.open), high: rows.map((r) => r.high), low: rows.map((r) => r.low), close: rows.map((r) => r.close), volume: rows.map((r) => r.volume) };
}

const plain = (c: Candles) => ({ length: c.length, widthMinutes: c.widthMinutes, time: [...c.time], open: [...c.open], high: [...c.high], low: [...c.low], close: [...c.close], volume: [...c.volume] });
const at = (minutes: number) => SIMULATION_EPOCH_MS + minutes * MINUTE_MS;

describe('loadCandles and indexAtOrAfter: edges', function () {
  it('refuses a width that is not a whole number of minutes dividing an hour or made of whole hours', function () {
    const refused = [0, -60, 1.5, 7, 90].map((w) => {
      try {
        loadCandles(new FakeSource(), 'ethereum', at(0), at(60), w);
        return 'loaded';
      } catch (error) {
        return error instanceof RangeError ? error.message : 'another error';
      }
    });
    expect(refused).to.deep.equal([0, -60, 1.5, 7, 90].map((w) => `candle width must divide an hour or be whole hours, got ${w}`));
  });

  it('accepts one minute, an hour and two hours', function () {
    expect([1, 60, 120].map((w) => loadCandles(new FakeSource(), 'ethereum', at(0), at(240), w).length)).to.deep.equal([240, 4, 2]);
  });

  it('folds 5-minute candles from the candle holding the start to the last one closed by the end, reading whole hours', function () {
    const source = new FakeSource();
    const candles = loadCandles(source, 'ethereum', at(3), at(127), 5);
    expect(plain(candles)).to.deep.equal(expected(0, 25, 5));
    expect(source.reads).to.deep.equal([
      [0, 60],
      [60, 60],
      [120, 5],
    ]);
  });

  it('folds 2-hour candles reading one candle at a time, and reads nothing past the end', function () {
    const source = new FakeSource();
    const candles = loadCandles(source, 'ethereum', at(0), at(240), 120);
    expect(plain(candles)).to.deep.equal(expected(0, 2, 120));
    expect(source.reads).to.deep.equal([
      [0, 120],
      [120, 120],
    ]);
  });

  it('finds the first candle opening at or after a time', function () {
    const candles = { length: 4, time: Float64Array.from([10, 20, 30, 40]) };
    expect([5, 10, 20, 25, 40, 45].map((t) => indexAtOrAfter(candles, t))).to.deep.equal([0, 0, 1, 2, 3, 4]);
  });
});
