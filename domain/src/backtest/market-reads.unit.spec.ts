/**
 * What the backtest market's caches are for (market.ts): a walk-forward asks the same hours, minutes,
 * charts and markets again and again, and each is computed from the path once. Counted here on a
 * simulation of its own, whose path and candles record every call: a second read of anything kept
 * asks the path nothing. (market.unit.spec.ts checks the numbers are the path's.)
 */
import { expect } from 'chai';
import { coins, type CoinId } from '../market/coins';
import { MarketSimulation } from '../market/simulation';
import { botMarketAt } from '../trading/engine/market-at';
import { candleArrays, SIMULATION_EPOCH_MS, tickAt, TICKS_PER_HOUR, TICKS_PER_MINUTE } from '../market/market-path';
import { cachedCharts, cachedMarketAt, cachedTicks, keep } from './market';

const KEY = Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 12]);
type Counted = 'hourWithTicks' | 'ticks' | 'minuteCandles' | 'summary' | 'candle';

/** A fresh simulation whose path's reads and candles are counted. */
function countedSimulation(): { sim: MarketSimulation; calls: Record<Counted, number>; total(): number } {
  const sim = new MarketSimulation(KEY, { fresh: true });
  const calls: Record<Counted, number> = { hourWithTicks: 0, ticks: 0, minuteCandles: 0, summary: 0, candle: 0 };
  const count = (target: object, name: Counted) => {
    const holder = target as Record<string, (...args: unknown[]) => unknown>;
    const original = holder[name]!.bind(target);
    holder[name] = (...args: unknown[]) => {
      calls[name]++;
      return original(...args);
    };
  };
  for (const name of ['hourWithTicks', 'ticks', 'minuteCandles', 'summary'] as const) count(sim.path, name);
  count(sim, 'candle');
  return { sim, calls, total: () => Object.values(calls).reduce((a, b) => a + b, 0) };
}

const coin: CoinId = coins[1]!.id;
const hourOf = (ms: number) => tickAt(ms) / TICKS_PER_HOUR;

describe('backtest market reads: each kept from the path once', function () {
  this.timeout(120_000);

  it("reads a past hour's minute candles, ticks and volumes from one pass over the hour", function () {
    const { sim, calls, total } = countedSimulation();
    const ticks = cachedTicks(sim);
    const hour = hourOf(Date.UTC(2025, 2, 10, 4));
    ticks.minuteCandles(coin, hour * 60, 60, candleArrays(60));
    expect(calls.hourWithTicks).to.equal(1);
    const after = total();
    ticks.minuteCandles(coin, hour * 60 + 10, 20, candleArrays(20));
    expect(ticks.keptHour!(coin, hour)).to.not.equal(undefined);
    ticks.minuteVolume(coin, hour * 60 + 59);
    for (let t = hour * TICKS_PER_HOUR; t < (hour + 1) * TICKS_PER_HOUR; t += 7) ticks.price(coin, t);
    expect(total(), 'path calls after the first read').to.equal(after);
  });

  it("reads a past hour's ticks at once, and not again on a second pass", function () {
    const { sim, calls, total } = countedSimulation();
    const ticks = cachedTicks(sim);
    const hour = hourOf(Date.UTC(2025, 2, 11, 9));
    for (let pass = 0; pass < 2; pass++) for (let t = hour * TICKS_PER_HOUR; t < (hour + 1) * TICKS_PER_HOUR; t++) ticks.price(coin, t);
    expect(calls.ticks).to.equal(1);
    expect(total()).to.equal(1);
  });

  it("reads a minute of the hour not over yet once, however often its ticks are asked for", function () {
    const { sim, calls } = countedSimulation();
    const hour = hourOf(Date.UTC(2025, 2, 12, 14));
    const last = hour * TICKS_PER_HOUR + 30 * TICKS_PER_MINUTE;
    const ticks = cachedTicks(sim, () => last);
    for (let pass = 0; pass < 3; pass++) for (let k = 0; k < TICKS_PER_MINUTE; k++) ticks.price(coin, hour * TICKS_PER_HOUR + 29 * TICKS_PER_MINUTE + k);
    expect(calls.ticks).to.equal(1);
  });

  it('keeps an hour whose last tick is the last one there is, as any hour over', function () {
    const { sim, calls, total } = countedSimulation();
    const hour = hourOf(Date.UTC(2025, 2, 13, 20));
    const ticks = cachedTicks(sim, () => (hour + 1) * TICKS_PER_HOUR - 1);
    for (let t = hour * TICKS_PER_HOUR; t < (hour + 1) * TICKS_PER_HOUR; t++) ticks.price(coin, t);
    expect(calls.ticks, "the hour's ticks at once").to.equal(1);
    expect(ticks.keptHour!(coin, hour)).to.not.equal(undefined);
    expect(calls.hourWithTicks).to.equal(1);
    const after = total();
    ticks.minuteCandles(coin, hour * 60, 60, candleArrays(60));
    ticks.minuteVolume(coin, hour * 60 + 59);
    expect(total(), 'from the kept hour').to.equal(after);
  });

  it("builds a fill time's market once, and a chart's candles once: a chart five minutes later makes only its new candle", function () {
    const { sim, calls } = countedSimulation();
    const charts = cachedCharts(sim);
    let chartCalls = 0;
    const marketAt = cachedMarketAt((id, days, endMs) => {
      chartCalls++;
      return charts(id, days, endMs);
    });
    const at = Date.UTC(2025, 2, 14, 6, 0, 2);
    marketAt(coin, at);
    const built = chartCalls;
    marketAt(coin, at);
    expect(chartCalls, 'charts asked for the same fill time again').to.equal(built);
    const day = charts(coin, 1, at + 3_600_000);
    const candlesBefore = calls.candle;
    charts(coin, 1, at + 3_600_000 + 5 * 60_000);
    expect(calls.candle - candlesBefore, 'candles made for a day chart 5 minutes later').to.equal(1);
    expect(day.candles.length).to.be.greaterThan(200);
  });

  it("gives botMarketAt's correlations in the simulation's first month, where the month charts all start at its start", function () {
    const sim = new MarketSimulation(KEY);
    const charts = cachedCharts(sim);
    const marketAt = cachedMarketAt(charts);
    // A month's chart there starts at the epoch whatever its end: each end its own chart.
    for (const days of [3, 9]) expect(charts(coin, 30, SIMULATION_EPOCH_MS + days * 86_400_000).candles).to.have.length(days * 6);
    const plain = (atMs: number) => botMarketAt((id, days, endMs) => sim.chart(id, days, endMs), coin, atMs);
    for (const atMs of [SIMULATION_EPOCH_MS + 3 * 86_400_000 + 2000, SIMULATION_EPOCH_MS + 9 * 86_400_000 + 2000]) {
      // Spread: the kept market's correlations are a lazy object, read key by key as a plain one.
      expect({ ...marketAt(coin, atMs).correlations }, new Date(atMs).toISOString()).to.deep.equal({ ...plain(atMs).correlations });
    }
  });

  it('keeps each table bounded: a full one drops its oldest quarter, then keeps the new entry', function () {
    const map = new Map<number, string>();
    for (let k = 0; k < 8; k++) expect(keep(map, 8, k, `v${k}`)).to.equal(`v${k}`);
    expect([...map.keys()]).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
    keep(map, 8, 8, 'v8');
    expect([...map.keys()]).to.deep.equal([2, 3, 4, 5, 6, 7, 8]);
    keep(map, 8, 9, 'v9');
    expect([...map.keys()]).to.deep.equal([2, 3, 4, 5, 6, 7, 8, 9]);
    keep(map, 8, 10, 'v10');
    expect([...map.keys()]).to.deep.equal([4, 5, 6, 7, 8, 9, 10]);
  });

  it('answers the last charts as they were until as many others have been asked for, then makes them again from the kept candles', function () {
    const { sim, calls } = countedSimulation();
    const charts = cachedCharts(sim, undefined, { candles: 1_000_000, charts: 3 });
    const end = Date.UTC(2025, 2, 15, 12);
    const first = charts(coin, 1, end);
    expect(charts(coin, 1, end), 'asked again at once').to.equal(first);
    charts(coin, 1, end + 60_000 * 5);
    charts(coin, 1, end + 60_000 * 10);
    expect(charts(coin, 1, end), 'the third chart since').to.equal(first);
    charts(coin, 1, end + 60_000 * 15);
    const made = calls.candle;
    const again = charts(coin, 1, end);
    expect(again, 'the fourth chart since: made again').to.not.equal(first);
    expect(again).to.deep.equal(first);
    expect(calls.candle, 'from the kept candles').to.equal(made);
  });

  it('forgets every kept candle once it holds as many as its bound, and makes them again', function () {
    const end = Date.UTC(2025, 2, 16, 12);
    const day = 288; // a day chart's complete 5-minute candles
    for (const [bound, madeAgain] of [[2 * day + 1, 0], [2 * day, day]] as const) {
      const { sim, calls } = countedSimulation();
      const charts = cachedCharts(sim, undefined, { candles: bound, charts: 1 });
      expect(charts(coin, 1, end).candles).to.have.length(day);
      charts(coin, 1, end - 86_400_000); // the day before: two days' candles kept
      expect(calls.candle).to.equal(2 * day);
      charts(coin, 1, end); // under the bound: from the kept candles; at it: all forgotten first
      expect(calls.candle - 2 * day, `candles made again with a bound of ${bound}`).to.equal(madeAgain);
    }
  });
});
