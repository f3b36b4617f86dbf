/**
 * The backtest market's caches change no number: the entry rules' market kept per fill time (each
 * coin's month columns kept per chart) equals botMarketAt over the simulation's own charts, at fill
 * times within one 4-hour month candle, across its boundary, repeated (hits) and out of order.
 */
import { expect } from 'chai';
import { coins, type CoinId } from '../market/coins';
import { MarketSimulation } from '../market/simulation';
import { botMarketAt, columnsAt } from '../trading/engine/market-at';
import { cachedCharts, cachedMarketAt } from './market';

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

  it('gives the simulation\'s charts (their complete candles) for more charts than it keeps, two coins and two spans, hit or miss', function () {
    const sim = new MarketSimulation(Uint32Array.from([18, 9, 2, 3, 4, 5, 6, 9]));
    const charts = cachedCharts(sim);
    const base = Date.UTC(2025, 2, 10, 3, 55, 2);
    for (let round = 0; round < 2; round++) {
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
  });
});
