/**
 * The backtest market's caches change no number: the entry rules' market kept per fill time (each
 * coin's month columns kept per chart) equals botMarketAt over the simulation's own charts, at fill
 * times within one 4-hour month candle, across its boundary, repeated (hits) and out of order.
 */
import { expect } from 'chai';
import { coins, type CoinId } from '../market/coins';
import { MarketSimulation } from '../market/simulation';
import { botMarketAt, columnsAt } from '../trading/engine/market-at';
import { candleArrays, tickAt, TICKS_PER_HOUR, TICKS_PER_MINUTE } from '../market/market-path';
import { pathTicks } from '../trading/engine/price-ticks';
import { cachedCharts, cachedMarketAt, cachedTicks, simulationMarket } from './market';

describe('backtest market caches', function () {
  this.timeout(120_000);

  it('gives botMarketAt\'s market at every fill time, hit or miss', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 7]));
    const marketAt = cachedMarketAt(cachedCharts(sim));
    const plain = (coinId: CoinId, atMs: number) => botMarketAt((id, days, endMs) => sim.chart(id, days, endMs), coinId, atMs);
    const base = Date.UTC(2025, 2, 10, 3, 55, 2); // five minutes before a 4-hour boundary, 2 s after a close
    // Times 2 s after a close, and on two ticks after it (5 s after it bot orders fill).
    const times = [0, 5, 10, 15, 240, 5, 0, 245, 480, -1440].flatMap((minutes) => [base + minutes * 60_000, base + 3000 + minutes * 60_000, base + 8000 + minutes * 60_000]);
    const checked = new Set<string>();
    for (const coin of [coins[0]!, coins[1]!, coins[0]!]) {
      for (const atMs of times) {
        expect(marketAt(coin.id, atMs), `${coin.id} at ${new Date(atMs).toISOString()}`).to.deep.equal(plain(coin.id, atMs));
        checked.add(`${coin.id}:${atMs}`);
      }
    }
    expect(checked.size).to.equal(2 * new Set(times).size);
  });

  it('gives the simulation\'s charts (their complete candles) for more charts than it keeps, two coins and two spans, hit or miss; with the backtest\'s ticks too (candles within an hour from its kept minutes)', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 9]));
    const withTicks = cachedCharts(sim, cachedTicks(sim));
    const base = Date.UTC(2025, 2, 10, 3, 55, 2);
    for (const charts of [cachedCharts(sim), withTicks]) for (let round = 0; round < 2; round++) {
      for (let k = 0; k < 40; k++) {
        for (const coin of [coins[0]!, coins[2]!]) {
          // Two fill times in one 5-minute candle, the second in its last minute: the same last candle, a day's first candle one later.
          for (const [days, atMs] of [1, 30].flatMap((d) => [0, 4 * 60_000].map((late) => [d, base + k * 37 * 60_000 + late] as const))) {
            expect(columnsAt(charts(coin.id, days, atMs), atMs), `${coin.id} ${days}d at ${new Date(atMs).toISOString()}`).to.deep.equal(columnsAt(sim.chart(coin.id, days, atMs), atMs));
          }
        }
      }
    }
  });

  it('makes a candle within a past hour from the kept minute candles with the path\'s numbers, for every width that fits an hour, and from the path for the others', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 11]));
    const fresh = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 11]), { fresh: true });
    const charts = cachedCharts(sim, cachedTicks(sim));
    const at = Date.UTC(2025, 4, 2, 11, 0, 2);
    for (const days of [0.25, 1, 2, 7, 30]) {
      for (const coin of [coins[0]!, coins[3]!]) {
        const got = charts(coin.id, days, at).candles;
        const want = fresh.chart(coin.id, days, at).candles.slice(0, got.length);
        expect(got.length, `${days}d`).to.be.greaterThan(10);
        for (let i = 0; i < got.length; i++) expect(got[i], `${coin.id} ${days}d candle ${i}`).to.deep.equal(want[i]);
      }
    }
  });

  it('makes the day chart\'s candles from the hours the ticks keep, without the path: the path summarises only what they do not keep', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 12]));
    const asked: number[] = [];
    const candle = sim.candle.bind(sim);
    sim.candle = (coinId, fromMs, toMs) => {
      asked.push(toMs - fromMs);
      return candle(coinId, fromMs, toMs);
    };
    const market = simulationMarket(sim);
    const at = Date.UTC(2025, 4, 2, 11, 0, 2);
    // The day before `at` kept, as a backtest's candles keep it.
    const firstHour = Math.floor((at - 86_400_000 - Date.UTC(2020, 0, 1)) / 3_600_000) - 1;
    for (let h = firstHour; h < firstHour + 26; h++) expect(market.ticks.keptHour!('ethereum', h), `hour ${h}`).to.not.equal(undefined);
    const day = market.charts('ethereum', 1, at);
    expect(day.candles.length).to.be.greaterThan(200);
    expect(asked, 'the day chart asked the path').to.deep.equal([]);
    const fresh = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 12]), { fresh: true });
    expect(day.candles).to.deep.equal(fresh.chart('ethereum', 1, at).candles.slice(0, day.candles.length));
    // A month's 4-hour candles are the path's summaries.
    const month = market.charts('ethereum', 30, at);
    expect(asked.length).to.equal(month.candles.length);
    expect(new Set(asked)).to.deep.equal(new Set([4 * 3_600_000]));
  });

  it('reads a source bounded by a clock as the path gives it: the hour not over yet minute by minute, nothing after its last tick, and the hour kept once it is over', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 10]));
    const path = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 10]), { fresh: true }).path;
    const coin = coins[1]!.id;
    const hour = tickAt(Date.UTC(2025, 2, 10, 4)) / TICKS_PER_HOUR;
    let last = hour * TICKS_PER_HOUR + 25 * TICKS_PER_MINUTE + 7; // 4:25:35
    const ticks = cachedTicks(sim, () => last);
    const minutesOf = (from: number, count: number) => ticks.minuteCandles(coin, from, count, candleArrays(count));
    const plainMinutes = (from: number, count: number) => path.minuteCandles(coin, from, count);
    // The hour before: over, kept whole.
    expect(ticks.keptHour!(coin, hour - 1)?.close).to.deep.equal(plainMinutes((hour - 1) * 60, 60).close);
    expect(ticks.price(coin, hour * TICKS_PER_HOUR - 1)).to.equal(path.price(coin, hour * TICKS_PER_HOUR - 1));
    // This hour: not kept, read up to the last tick, refused after it.
    expect(ticks.keptHour!(coin, hour)).to.equal(undefined);
    for (const t of [hour * TICKS_PER_HOUR, last - 1, last]) expect(ticks.price(coin, t), `tick ${t}`).to.equal(path.price(coin, t));
    expect(() => ticks.price(coin, last + 1)).to.throw(RangeError);
    expect(minutesOf(hour * 60 + 3, 22)).to.deep.equal(plainMinutes(hour * 60 + 3, 22));
    expect(ticks.minuteVolume(coin, hour * 60 + 24)).to.equal(path.summary(coin, (hour * 60 + 24) * TICKS_PER_MINUTE, (hour * 60 + 25) * TICKS_PER_MINUTE).volume);
    expect(() => minutesOf(hour * 60 + 20, 10)).to.throw(RangeError);
    expect(() => ticks.minuteVolume(coin, hour * 60 + 25)).to.throw(RangeError);
    // A candle read across the boundary of the hour before: the kept part and the part of this hour.
    expect(minutesOf(hour * 60 - 5, 20)).to.deep.equal(plainMinutes(hour * 60 - 5, 20));
    // The hour over: kept, the same numbers.
    last = (hour + 1) * TICKS_PER_HOUR + 3;
    expect(ticks.keptHour!(coin, hour)?.high).to.deep.equal(plainMinutes(hour * 60, 60).high);
    expect(ticks.price(coin, (hour + 1) * TICKS_PER_HOUR - 2)).to.equal(path.price(coin, (hour + 1) * TICKS_PER_HOUR - 2));
    expect(ticks.minuteVolume(coin, hour * 60 + 59)).to.equal(path.summary(coin, (hour * 60 + 59) * TICKS_PER_MINUTE, (hour * 60 + 60) * TICKS_PER_MINUTE).volume);
  });

  it('builds another coin\'s month chart only when its correlation is read, and then gives botMarketAt\'s value', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 8]));
    const asked = new Set<CoinId>();
    const charts = cachedCharts(sim);
    const marketAt = cachedMarketAt((id, days, endMs) => {
      asked.add(id);
      return charts(id, days, endMs);
    });
    const [eth, btc] = [coins.find((c) => c.symbol === 'ETH')!, coins.find((c) => c.symbol === 'BTC')!];
    const atMs = Date.UTC(2025, 2, 10, 3, 55, 2);
    const market = marketAt(eth.id, atMs);
    expect(market.figures.atr14).to.be.a('number');
    expect([...asked]).to.deep.equal([eth.id]);
    const plain = botMarketAt((id, days, endMs) => sim.chart(id, days, endMs), eth.id, atMs);
    expect(market.correlations.BTC).to.equal(plain.correlations.BTC);
    expect([...asked].sort()).to.deep.equal([eth.id, btc.id].sort());
    expect(Object.keys(market.correlations).sort()).to.deep.equal(Object.keys(plain.correlations).sort());
    // It reads as the plain object: every other coin's value, spread, in, JSON; nothing for its own coin or an unknown key; read-only.
    expect({ ...market.correlations }).to.deep.equal(plain.correlations);
    expect(JSON.parse(JSON.stringify(market.correlations))).to.deep.equal(JSON.parse(JSON.stringify(plain.correlations)));
    expect('SOL' in market.correlations).to.equal(true);
    expect('ETH' in market.correlations, 'its own coin').to.equal(false);
    expect((market.correlations as Record<string, unknown>)['ETH']).to.equal(undefined);
    expect((market.correlations as Record<string, unknown>)['DOGE']).to.equal(undefined);
    expect(() => {
      'use strict';
      (market.correlations as Record<string, number>)['BTC'] = 0;
    }).to.throw(TypeError);
    expect(market.correlations.BTC).to.equal(plain.correlations.BTC);
  });

  it('keeps each coin\'s ticks apart within one hour, answers a tick range as the path does, and builds a chart whose first candle is past the first block', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 13]));
    const path = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 13]), { fresh: true }).path;
    const ticks = cachedTicks(sim);
    const [a, b] = [coins[0]!.id, coins[1]!.id];
    const t = tickAt(Date.UTC(2025, 2, 10, 4, 17, 35));
    // Alternating coins in one past hour: each read is its own coin's tick, not the hour kept last.
    for (const [coin, tick] of [[a, t], [b, t], [a, t + 1], [b, t + 1], [b, t + 700], [a, t + 700]] as const) {
      expect(ticks.price(coin, tick), `${coin} ${tick}`).to.equal(path.price(coin, tick));
    }
    expect(ticks.range(a, t, t + 50)).to.deep.equal(pathTicks(path).range(a, t, t + 50));
    // 5-minute candles from 2020-01-05 on are past index 1,023 (the first block) since 2020-01-01.
    const at = Date.UTC(2020, 0, 6, 0, 0, 2);
    const day = cachedCharts(sim)(a, 1, at);
    expect(day.candles.length).to.be.greaterThan(200);
    expect(day.candles).to.deep.equal(new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 13]), { fresh: true }).chart(a, 1, at).candles.slice(0, day.candles.length));
  });

  it('builds a chart inside the hour a bounded source is in from the path: that hour is not kept yet', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 14]));
    const fresh = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 14]), { fresh: true });
    const at = Date.UTC(2025, 2, 10, 4, 25, 2);
    const charts = cachedCharts(sim, cachedTicks(sim, () => tickAt(at)));
    const day = charts(coins[0]!.id, 1, at);
    // Its last candles (4:00 to 4:25) are in the hour not over yet.
    expect(day.candles.at(-1)!.time).to.equal(Date.UTC(2025, 2, 10, 4, 20));
    expect(day.candles).to.deep.equal(fresh.chart(coins[0]!.id, 1, at).candles.slice(0, day.candles.length));
  });
});
