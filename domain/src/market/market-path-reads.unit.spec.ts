/**
 * What the market path's kept numbers are for (market-path.ts): a span reads whole days and hours from
 * their kept summaries, whole minutes from their hour's candles and only a ragged end tick by tick, and a
 * second read of anything kept computes nothing. Counted on a path of its own whose coin path records
 * every call; the numbers themselves are market-path.unit.spec.ts's. Also the refusals' messages and the
 * given arrays' bounds (nothing written past the candles or ticks asked for).
 */
import { expect } from 'chai';
import type { CoinId } from './coins';
import { candleArrays, type CandleArrays, MarketPath, tickAt, TICKS_PER_DAY, TICKS_PER_HOUR, TICKS_PER_MINUTE } from './market-path';

const KEY = Uint32Array.from([7, 0x9e3779b9, 0x243f6a88, 3, 4, 5, 6, 0x85a308d3]);
const DAY = tickAt(Date.UTC(2025, 4, 20)); // a UTC midnight
const HOUR = DAY + 5 * TICKS_PER_HOUR;
const coin: CoinId = 'ethereum';

type Counted = 'daySummary' | 'hourSummary' | 'hourCandles' | 'computeHourCandles' | 'minuteLogs';

/** A fresh path whose coin path counts its reads (by name, since the last `reset`). */
function countedPath(): { path: MarketPath; calls: Record<Counted, number>; reset(): void } {
  const path = new MarketPath(KEY);
  const coinPath = (path as unknown as { path(id: CoinId): Record<string, (...args: unknown[]) => unknown> }).path(coin);
  const calls: Record<Counted, number> = { daySummary: 0, hourSummary: 0, hourCandles: 0, computeHourCandles: 0, minuteLogs: 0 };
  for (const name of Object.keys(calls) as Counted[]) {
    const original = coinPath[name]!.bind(coinPath);
    coinPath[name] = (...args: unknown[]) => {
      calls[name]++;
      return original(...args);
    };
  }
  return { path, calls, reset: () => (Object.keys(calls) as Counted[]).forEach((name) => (calls[name] = 0)) };
}

/** Typed arrays longer than asked for, filled with a value no candle or tick has. */
function padded(count: number, extra: number): CandleArrays {
  const out = candleArrays(count + extra);
  for (const [, array] of columns(out)) array.fill(-1);
  return out;
}

const columns = (candles: CandleArrays) => Object.entries(candles) as [keyof CandleArrays, Float64Array][];

describe('market path reads: kept numbers, read once', function () {
  this.timeout(60_000);

  it('reads a span of whole days from their summaries (each day computed once), and nothing the second time', function () {
    const { path, calls, reset } = countedPath();
    const first = path.summary(coin, DAY, DAY + 2 * TICKS_PER_DAY);
    expect(calls.daySummary, 'days').to.equal(2);
    expect(calls.computeHourCandles, 'hours computed').to.equal(48);
    expect(calls.minuteLogs, 'ticks read').to.equal(0);
    reset();
    expect(path.summary(coin, DAY, DAY + 2 * TICKS_PER_DAY)).to.deep.equal(first);
    expect(calls.computeHourCandles, 'hours computed again').to.equal(0);
    expect(calls.hourSummary, 'hours read again').to.equal(0);
  });

  it('reads whole hours from their summaries, and a known hour without computing it again', function () {
    const { path, calls, reset } = countedPath();
    const first = path.summary(coin, HOUR, HOUR + 2 * TICKS_PER_HOUR);
    expect(calls.hourSummary, 'hours').to.equal(2);
    expect(calls.daySummary + calls.hourCandles + calls.minuteLogs, 'days, minutes or ticks').to.equal(0);
    expect(calls.computeHourCandles, 'hours computed').to.equal(2);
    reset();
    expect(path.summary(coin, HOUR, HOUR + 2 * TICKS_PER_HOUR)).to.deep.equal(first);
    expect(calls.computeHourCandles, 'hours computed again').to.equal(0);
  });

  it("reads whole minutes from their hour's kept candles, and ragged ends tick by tick", function () {
    const { path, calls, reset } = countedPath();
    const from = HOUR + 5 * TICKS_PER_MINUTE;
    path.summary(coin, from, from + 25 * TICKS_PER_MINUTE);
    expect(calls.hourCandles, 'hours of minutes').to.equal(1);
    expect(calls.minuteLogs + calls.hourSummary, 'ticks or hour summaries').to.equal(0);
    reset();
    path.summary(coin, from, from + TICKS_PER_MINUTE);
    expect(calls.minuteLogs, 'ticks of one whole minute').to.equal(0);
    reset();
    path.summary(coin, from + 3, from + 2 * TICKS_PER_MINUTE + 5);
    expect(calls.minuteLogs, 'the ragged minutes').to.equal(2);
    expect(calls.hourCandles, 'the whole minute between').to.equal(1);
  });

  it("keeps an hour's minute candles: the same array the second time", function () {
    const { path } = countedPath();
    const coinPath = (path as unknown as { path(id: CoinId): { hourCandles(hour: number): Float64Array } }).path(coin);
    const hour = HOUR / TICKS_PER_HOUR;
    expect(coinPath.hourCandles(hour)).to.equal(coinPath.hourCandles(hour));
  });

  it('writes no candle or tick past the ones asked for into arrays given longer', function () {
    const path = new MarketPath(KEY);
    const firstMinute = HOUR / TICKS_PER_MINUTE + 50; // 10 minutes of one hour, the next hour, 7 of a third
    const count = 10 + 60 + 7;
    const candles = path.minuteCandles(coin, firstMinute, count, padded(count, 3));
    for (const [name, array] of columns(candles)) {
      expect(array.subarray(0, count).every((x) => x > 0), `${name} written`).to.equal(true);
      expect([...array.subarray(count)], `${name} past the last candle`).to.deep.equal([-1, -1, -1]);
    }
    const hourCandles = padded(60, 2);
    const ticks = new Float64Array(TICKS_PER_HOUR + 2).fill(-1);
    path.hourWithTicks(coin, HOUR / TICKS_PER_HOUR, hourCandles, ticks);
    for (const [name, array] of columns(hourCandles)) expect([...array.subarray(60)], `${name} past the hour`).to.deep.equal([-1, -1]);
    expect([...ticks.subarray(TICKS_PER_HOUR)], 'ticks past the hour').to.deep.equal([-1, -1]);
    expect(ticks.subarray(0, TICKS_PER_HOUR).every((x) => x > 0), 'the hour\'s ticks').to.equal(true);
  });

  it('refuses what is not a time, a tick before the epoch, an empty span and arrays too short for an hour, saying which', function () {
    const path = new MarketPath(KEY);
    expect(() => tickAt(Number.NaN)).to.throw(RangeError, 'not a time: NaN');
    expect(() => path.price(coin, -1)).to.throw(RangeError, 'not a tick of the simulated market: -1');
    expect(() => path.summary(coin, DAY + 5, DAY + 5)).to.throw(RangeError, 'a span needs at least one tick');
    expect(() => path.summary(coin, DAY + 5, DAY + 4)).to.throw(RangeError, 'a span needs at least one tick');
    expect(path.summary(coin, DAY + 5, DAY + 6).open).to.equal(path.price(coin, DAY + 5));
    const room = 'an hour needs room for 60 candles and 720 ticks';
    expect(() => path.hourWithTicks(coin, HOUR / TICKS_PER_HOUR, candleArrays(59), new Float64Array(TICKS_PER_HOUR))).to.throw(RangeError, room);
    expect(() => path.hourWithTicks(coin, HOUR / TICKS_PER_HOUR, candleArrays(60), new Float64Array(TICKS_PER_HOUR - 1))).to.throw(RangeError, room);
  });
});
