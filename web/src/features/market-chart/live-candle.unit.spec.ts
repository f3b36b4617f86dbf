/**
 * Live ticks on the newest candle: folded into it inside its interval, a new candle on the server's
 * grid past its end, nothing invented for skipped intervals, stale or bad ticks ignored.
 */
import { expect } from 'chai';
import type { Candle } from './chart-geometry';
import { liveCandlesReducer, mergeLivePrice, MINUTE_MS, type LiveCandles } from './live-candle';

const HOUR_MS = 60 * MINUTE_MS;
const T0 = Date.UTC(2026, 10, 22, 9);

/** Three hourly candles, the newest opening at T0 + 2 h. */
function hourly(): Candle[] {
  return [
    { time: T0, open: 100, high: 104, low: 99, close: 103, volume: 10 },
    { time: T0 + HOUR_MS, open: 103, high: 106, low: 101, close: 102, volume: 11 },
    { time: T0 + 2 * HOUR_MS, open: 102, high: 105, low: 100, close: 104, volume: 12 },
  ];
}

describe('live candle', function () {
  describe('mergeLivePrice', function () {
    it('closes the newest candle at the live price inside its interval, extending high and low', function () {
      const candles = hourly();
      const up = mergeLivePrice(candles, { price: 107, at: T0 + 2 * HOUR_MS + 30 * MINUTE_MS }, 60);
      expect(up.at(-1)).to.deep.equal({ time: T0 + 2 * HOUR_MS, open: 102, high: 107, low: 100, close: 107, volume: 12 });
      const down = mergeLivePrice(up, { price: 98.5, at: T0 + 3 * HOUR_MS - 1 }, 60);
      expect(down.at(-1)).to.deep.equal({ time: T0 + 2 * HOUR_MS, open: 102, high: 107, low: 98.5, close: 98.5, volume: 12 });
      const inside = mergeLivePrice(down, { price: 101, at: T0 + 3 * HOUR_MS - 1 }, 60);
      expect(inside.at(-1)).to.deep.equal({ time: T0 + 2 * HOUR_MS, open: 102, high: 107, low: 98.5, close: 101, volume: 12 });
      expect(inside.slice(0, -1)).to.deep.equal(candles.slice(0, -1));
      expect(candles).to.deep.equal(hourly()); // the input is untouched
    });

    it('opens the next candle on the grid when the tick passes the newest candle end, keeping the count', function () {
      const candles = hourly();
      const next = mergeLivePrice(candles, { price: 110, at: T0 + 3 * HOUR_MS }, 60);
      expect(next).to.have.length(3);
      expect(next.map((c) => c.time)).to.deep.equal([T0 + HOUR_MS, T0 + 2 * HOUR_MS, T0 + 3 * HOUR_MS]);
      expect(next.at(-1)).to.deep.equal({ time: T0 + 3 * HOUR_MS, open: 110, high: 110, low: 110, close: 110, volume: 0 });
      expect(next[1]).to.deep.equal(candles[2]); // the previous newest keeps its close
      const later = mergeLivePrice(next, { price: 108, at: T0 + 3 * HOUR_MS + 5_000 }, 60);
      expect(later.at(-1)).to.deep.equal({ time: T0 + 3 * HOUR_MS, open: 110, high: 110, low: 108, close: 108, volume: 0 });
    });

    it('does not make up the candles of skipped intervals: the tick lands in its own', function () {
      const next = mergeLivePrice(hourly(), { price: 111, at: T0 + 5 * HOUR_MS + 20 * MINUTE_MS }, 60);
      expect(next.map((c) => c.time)).to.deep.equal([T0 + HOUR_MS, T0 + 2 * HOUR_MS, T0 + 5 * HOUR_MS]);
    });

    it('only folds into the newest candle without an interval (history fallback)', function () {
      const next = mergeLivePrice(hourly(), { price: 111, at: T0 + 9 * HOUR_MS }, null);
      expect(next).to.have.length(3);
      expect(next.at(-1)).to.include({ time: T0 + 2 * HOUR_MS, close: 111, high: 111 });
    });

    it('ignores stale ticks, bad prices, an empty chart, and answers the same array when nothing changes', function () {
      const candles = hourly();
      expect(mergeLivePrice(candles, { price: 90, at: T0 + 2 * HOUR_MS - 1 }, 60)).to.equal(candles);
      for (const price of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(mergeLivePrice(candles, { price, at: T0 + 2 * HOUR_MS }, 60)).to.equal(candles);
      expect(mergeLivePrice(candles, { price: 101, at: Number.NaN }, 60)).to.equal(candles);
      expect(mergeLivePrice([], { price: 101, at: T0 }, 60)).to.deep.equal([]);
      expect(mergeLivePrice(candles, { price: 104, at: T0 + 2 * HOUR_MS + 1 }, 60)).to.equal(candles);
    });
  });

  describe('liveCandlesReducer', function () {
    it('accumulates ticks over the fetched candles and starts over from the next fetch', function () {
      const fetched = hourly();
      let state: LiveCandles = liveCandlesReducer({ fetched: [], intervalMinutes: null, candles: [] }, { type: 'fetched', candles: fetched, intervalMinutes: 60 });
      expect(state.candles).to.equal(fetched);
      state = liveCandlesReducer(state, { type: 'tick', tick: { price: 109, at: T0 + 2 * HOUR_MS + 1_000 } });
      state = liveCandlesReducer(state, { type: 'tick', tick: { price: 103, at: T0 + 2 * HOUR_MS + 6_000 } });
      // Both ticks count: the high of the first survives the second.
      expect(state.candles.at(-1)).to.include({ high: 109, close: 103 });
      const same = liveCandlesReducer(state, { type: 'tick', tick: { price: 103, at: T0 + 2 * HOUR_MS + 7_000 } });
      expect(same).to.equal(state);
      const refetched = hourly();
      state = liveCandlesReducer(state, { type: 'fetched', candles: refetched, intervalMinutes: 60 });
      expect(state.candles).to.equal(refetched);
      expect(state.candles.at(-1)).to.include({ high: 105, close: 104 });
    });
  });
});
