/**
 * The chart's ohlc-then-history fallback (spec sections 7 and 8): ohlc when it answered OK, history
 * converted to candles dated backwards from today, synthetic candles for an empty history, and
 * 'Failed to fetch price data' when both failed.
 */
import { expect } from 'chai';
import type { HistoryResponse, OhlcResponse } from '@papertrade/domain/market/contracts';
import {
  candlesFromHistory,
  chartCandles,
  DAY_MS,
  PRICE_DATA_FETCH_FAILED,
  SYNTHETIC_CANDLE_COUNT,
  syntheticCandles,
} from './history-fallback';

const NOW = Date.parse('2026-11-22T09:00:00.000Z');
const HOUR = 3_600_000;

const ohlc: OhlcResponse = {
  coinId: 'ethereum',
  days: 7,
  interval: '1h',
  intervalMinutes: 60,
  candles: [
    { time: NOW - HOUR, timestamp: NOW - HOUR, timeLabel: 'Nov 22, 08:00', open: 3200, high: 3220, low: 3190, close: 3210, volume: 12 },
    { time: NOW, timestamp: NOW, timeLabel: 'Nov 22, 09:00', open: 3210, high: 3215, low: 3195, close: 3200, volume: 9 },
  ],
};
// Times the server would send; the spec's rule dates the entries itself.
const history: HistoryResponse = [
  { time: 1, price: 100 },
  { time: 2, price: 110 },
  { time: 3, price: 105 },
];

describe('chart candles: ohlc, then history', function () {
  it('uses the ohlc candles when that call answered OK, without asking for history', function () {
    expect(chartCandles({ ok: true, value: ohlc }, undefined, { days: 7, now: NOW })).to.equal(ohlc.candles);
  });

  it('falls back to history when ohlc did not answer OK', function () {
    const candles = chartCandles({ ok: false }, { ok: true, value: history }, { days: 3, now: NOW });
    expect(candles.map((c) => c.close)).to.deep.equal([100, 110, 105]);
  });

  it("throws 'Failed to fetch price data' when both failed", function () {
    expect(() => chartCandles({ ok: false }, { ok: false }, { days: 7, now: NOW })).to.throw(Error, PRICE_DATA_FETCH_FAILED);
    expect(() => chartCandles({ ok: false }, undefined, { days: 7, now: NOW })).to.throw(Error, 'Failed to fetch price data');
  });

  it('draws synthetic candles at the current price when history is empty', function () {
    const candles = chartCandles({ ok: false }, { ok: true, value: [] }, { days: 30, now: NOW, price: 3200 });
    expect(candles).to.have.length(SYNTHETIC_CANDLE_COUNT);
    expect(candles.every((c) => c.open === 3200 && c.high === 3200 && c.low === 3200 && c.close === 3200)).to.equal(true);
    expect(chartCandles({ ok: false }, { ok: true, value: [] }, { days: 30, now: NOW })).to.deep.equal([]);
  });
});

describe('candles from history', function () {
  it('dates one candle per entry backwards from today, the last at now, spread over the range', function () {
    const candles = candlesFromHistory(history, { days: 3, now: NOW });
    expect(candles.map((c) => c.time)).to.deep.equal([NOW - 2 * DAY_MS, NOW - DAY_MS, NOW]);
    const hourly = candlesFromHistory(history, { days: 0.125, now: NOW }); // 3 hours, 3 entries
    expect(hourly.map((c) => c.time)).to.deep.equal([NOW - 2 * HOUR, NOW - HOUR, NOW]);
  });

  it("opens each candle at the previous entry's price and closes at its own, volume 0", function () {
    expect(candlesFromHistory(history, { days: 3, now: NOW })).to.deep.equal([
      { time: NOW - 2 * DAY_MS, open: 100, high: 100, low: 100, close: 100, volume: 0 },
      { time: NOW - DAY_MS, open: 100, high: 110, low: 100, close: 110, volume: 0 },
      { time: NOW, open: 110, high: 110, low: 105, close: 105, volume: 0 },
    ]);
  });

  it('is empty for an empty history', function () {
    expect(candlesFromHistory([], { days: 7, now: NOW })).to.deep.equal([]);
  });
});

describe('synthetic candles', function () {
  it('are flat at the price, oldest first, the last at now, spread over the range', function () {
    const candles = syntheticCandles(50, { days: 7, now: NOW }, 7);
    expect(candles.map((c) => c.time)).to.deep.equal(Array.from({ length: 7 }, (_, i) => NOW - (6 - i) * DAY_MS));
    expect(candles[0]).to.deep.equal({ time: NOW - 6 * DAY_MS, open: 50, high: 50, low: 50, close: 50, volume: 0 });
  });

  it('are none without a usable price', function () {
    expect(syntheticCandles(null, { days: 7, now: NOW })).to.deep.equal([]);
    expect(syntheticCandles(0, { days: 7, now: NOW })).to.deep.equal([]);
    expect(syntheticCandles(Number.NaN, { days: 7, now: NOW })).to.deep.equal([]);
  });
});
