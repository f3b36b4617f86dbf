/**
 * The backtest run's edges: an unknown coin is refused by name, the market passes the caller's signal
 * ids through, runBacktest answers what the detailed run does, and progress is reported from 0 every
 * 4096 candles of the period, then 1.
 */
import { expect } from 'chai';
import { MarketSimulation } from '../market/simulation';
import { DEFAULT_RISK_PROFILE } from '../trading/contracts';
import { pathTicks, type PriceTicks } from '../trading/engine/price-ticks';
import { tickAt } from '../market/market-path';
import { findStrategy, type StrategyId } from './contracts';
import { cachedTicks, simulationMarket } from './market';
import { candlesFor, candlesWithWarmUp, runBacktest, runBacktestDetail, runDecidedBacktest, type BacktestConfig, type BacktestMarket } from './run-backtest';
import { emptyCandles } from './candles';

const KEY = Uint32Array.from([18, 3, 2, 3, 4, 5, 6, 7]);
const DAY = 86_400_000;
const START = Date.UTC(2025, 5, 2);
const defaults = (id: StrategyId) => Object.fromEntries(Object.entries(findStrategy(id)!.parameters).map(([k, v]) => [k, v.default]));
const config = (days: number, extra: Partial<BacktestConfig> = {}): BacktestConfig => ({ strategyId: 'macd-momentum', symbol: 'ETH', startMs: START, endMs: START + days * DAY, initialCapital: 10_000, parameters: defaults('macd-momentum'), ...extra });

describe('backtest run: edges', function () {
  this.timeout(60_000);
  let sim: MarketSimulation;
  let market: BacktestMarket;
  before(function () {
    sim = new MarketSimulation(KEY);
    market = simulationMarket(sim);
  });

  it('refuses an unknown coin by its symbol, loading candles or running', function () {
    const unused = {} as unknown as PriceTicks;
    expect(() => candlesWithWarmUp({ symbol: 'XYZ' as BacktestConfig['symbol'], startMs: START, endMs: START + DAY }, unused, 10)).to.throw(RangeError, 'no coin XYZ');
    expect(() => runDecidedBacktest({ ...config(1, { symbol: 'XYZ' as BacktestConfig['symbol'] }), label: 'x' }, market, { rules: { profile: DEFAULT_RISK_PROFILE }, candles: emptyCandles(0, 5), decisions: new Int8Array(0) })).to.throw(RangeError, 'no coin XYZ');
  });

  it("the simulation market names signals and their events with the caller's functions", function () {
    const signalIdOf = (symbol: string, candleTime: string) => `s:${symbol}@${candleTime}`;
    const signalEventIdOf = (symbol: string, candleTime: string) => `e:${symbol}@${candleTime}`;
    const m = simulationMarket(sim, signalIdOf, signalEventIdOf);
    expect([m.signalIdOf, m.signalEventIdOf]).to.deep.equal([signalIdOf, signalEventIdOf]);
  });

  it("the backtest's kept prices of a past hour are the path's, tick for tick", function () {
    const fresh = new MarketSimulation(KEY, { fresh: true });
    const kept = cachedTicks(fresh);
    const path = pathTicks(fresh.path);
    const at = tickAt(START + 90 * 60_000 + 7_000);
    const ticks = [at, at + 1, at + 500];
    expect(ticks.map((t) => kept.price('ethereum', t))).to.deep.equal(ticks.map((t) => path.price('ethereum', t)));
  });

  it('runBacktest answers the result and trades of the detailed run', function () {
    const rules = { profile: DEFAULT_RISK_PROFILE };
    const detail = runBacktestDetail(config(2), market, { rules });
    expect(runBacktest(config(2), market, { rules })).to.deep.equal({ result: detail.result, trades: detail.trades });
  });

  it('a run given candles reaching past its period stops at the period end: the same answer as with candles of the period', function () {
    const rules = { profile: DEFAULT_RISK_PROFILE };
    const own = runBacktestDetail(config(2), market, { rules });
    const longer = runBacktestDetail(config(2), market, { rules, candles: candlesFor(config(3), market.ticks) });
    expect(longer.result).to.deep.equal(own.result);
  });

  it('reports progress at the first candle, every 4096 candles of the period, and 1 at the end', function () {
    const fractions: number[] = [];
    runBacktestDetail(config(15), market, { rules: { profile: DEFAULT_RISK_PROFILE }, figuresOnly: true, onProgress: (f) => fractions.push(f) });
    // 15 days of 5-minute candles: 4320; the second report is at the 4097th.
    expect(fractions).to.deep.equal([0, 4096 / 4320, 1]);
  });
});
