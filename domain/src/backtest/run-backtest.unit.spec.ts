/**
 * runBacktest through the paper engine, checked by hand against the path: a signal's BUY fills at the
 * first tick 2 s after its candle's close at mid x (1 + half spread + impact), the impact the
 * square-root law on the minute before; the fee is 0.1 % of the notional; a fixed stop closes at the
 * first tick at or below entry x (1 - 0.5 %) after the opening tick, at that tick's mid less the
 * costs; the P&L is the sale less its fee less what the lot cost, fee included; the figures follow.
 * No look-ahead at the engine's level: a run bounded at t reads nothing after t (its market throws)
 * and trades as a longer run did before t; a run whose market is replaced after t trades the same
 * before t.
 */
import { expect } from 'chai';
import { halfSpreadOf, type CoinId } from '../market/coins';
import { tickAt, tickTime, TICKS_PER_MINUTE } from '../market/market-path';
import { MarketSimulation } from '../market/simulation';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../trading/contracts';
import { sigmaPerMinute } from '../trading/engine/fills';
import type { ChartAt } from '../trading/engine/market-at';
import { pathTicks, type PriceTicks } from '../trading/engine/price-ticks';
import { backtestResultSchema, backtestTradeSchema, findStrategy, type StrategyId } from './contracts';
import { cachedCharts, cachedTicks, simulationMarket } from './market';
import { curvesOf, dailyReturns, EquitySeries, figuresOf, maxDrawdownOf, RunningEquity } from './metrics';
import { intendedFillMs } from '../trading/engine/bot-timing';
import { tradeIdFor } from '../trading/bot-trade-decision';
import { candlesFor, openedWith, runBacktestDetail, runBacktestsTogether, type BacktestConfig, type BacktestDetail, type BacktestMarket } from './run-backtest';
import { evolvePortfolio } from '../trading/portfolio';
import { MICROS_PER_USD, UNITS_PER_COIN } from '../trading/money';
import { BUY, SELL, warmUpCandles } from './strategies';

const KEY = Uint32Array.from([18, 2, 2, 3, 4, 5, 6, 7]);
let sim: MarketSimulation;
const DAY = 86_400_000;
const START = Date.UTC(2025, 5, 2);
// A fixed 0.5 % stop and a 1 % target; the entry rules open (any reward/risk, no correlation limit).
const PROFILE: RiskProfile = { ...DEFAULT_RISK_PROFILE, stopLossType: 'fixed', stopLossValue: 0.5, takeProfitRatio: 2, riskRewardRatio: 0.5, correlationLimit: 1, maxPositionSize: 20 };
const defaults = (id: StrategyId) => Object.fromEntries(Object.entries(findStrategy(id)!.parameters).map(([k, v]) => [k, v.default]));
const config = (id: StrategyId, days: number, extra: Partial<BacktestConfig> = {}): BacktestConfig => ({ strategyId: id, symbol: 'ETH', startMs: START, endMs: START + days * DAY, initialCapital: 10_000, parameters: defaults(id), ...extra });

describe('backtest engine: runBacktest through the paper engine', function () {
  this.timeout(300_000);
  // Run in a hook, not as the file loads, on a simulation made there: a mutation test loads the specs
  // once and then runs them with each mutant active, so a run made at load would never see a mutant,
  // and a simulation kept across the runs would keep its caches from an earlier mutant.
  let market: BacktestMarket;
  let run: BacktestDetail;
  before(function () {
    sim = new MarketSimulation(KEY);
    market = simulationMarket(sim);
    run = runBacktestDetail(config('macd-momentum', 4), market, { rules: { profile: PROFILE } });
  });

  it('answers the contract: the result and every trade parse', function () {
    backtestResultSchema.parse(run.result);
    for (const t of run.trades) backtestTradeSchema.parse(t);
    expect(run.result.equityCurve.length).to.be.within(2, 1000);
    expect(run.result.drawdownCurve.length).to.equal(run.result.equityCurve.length);
    expect(run.trades.filter((t) => t.side === 'BUY').length, 'BUYs').to.be.greaterThan(5);
    expect(run.trades.filter((t) => t.reason === 'STOP_LOSS').length, 'stops').to.be.greaterThan(0);
  });

  it('fills a BUY at the first tick 2 s after its candle close: mid x (1 + half spread + impact), fee 0.1 %', function () {
    const ticks = pathTicks(sim.path);
    const buys = run.trades.filter((t) => t.side === 'BUY');
    for (const buy of buys) {
      const close = run.decisions.find((d) => d.timeMs + 2000 <= Date.parse(buy.time) && Date.parse(buy.time) - d.timeMs < 7000)!;
      expect(close, `the decision of ${buy.time}`).to.not.equal(undefined);
      const tick = Math.ceil((close.timeMs + 2000 - tickTime(0)) / 5000);
      expect(buy.time).to.equal(new Date(tickTime(tick)).toISOString());
      const mid = ticks.price('ethereum', tick);
      const minuteVolume = ticks.minuteVolume('ethereum', Math.floor(tick / TICKS_PER_MINUTE) - 1);
      const impact = sigmaPerMinute('ethereum') * Math.sqrt((buy.amount * mid) / minuteVolume);
      expect(buy.execution.mid).to.equal(mid);
      expect(buy.execution.halfSpread).to.equal(halfSpreadOf('ethereum'));
      expect(buy.execution.impact).to.be.closeTo(impact, 1e-15);
      expect(buy.price).to.be.closeTo(mid * (1 + halfSpreadOf('ethereum') + impact), 1e-9);
      expect(buy.fee).to.be.closeTo(buy.amount * buy.price * 0.001, 0.000_001 + 1e-9);
    }
  });

  it('closes a fixed stop at the first tick at or below entry x (1 - 0.5 %) after its opening tick, and books the P&L by hand', function () {
    const ticks = pathTicks(sim.path);
    const stops = run.trades.filter((t) => t.reason === 'STOP_LOSS');
    for (const stop of stops) {
      const positionId = stop.tradeId.slice('close:'.length);
      const buy = run.trades.find((t) => t.tradeId === positionId)!;
      const level = buy.price * (1 - 0.005);
      expect(stop.execution.level).to.be.closeTo(level, 1e-9);
      let tick = tickAt(Date.parse(buy.time)) + 1;
      while (ticks.price('ethereum', tick) > level) tick++;
      expect(stop.time, 'the first crossing tick').to.equal(new Date(tickTime(tick)).toISOString());
      const mid = ticks.price('ethereum', tick);
      expect(stop.price).to.be.closeTo(mid * (1 - halfSpreadOf('ethereum') - stop.execution.impact), 1e-9);
      expect(stop.amount).to.equal(buy.amount);
      const hand = stop.amount * stop.price - stop.amount * stop.price * 0.001 - (buy.amount * buy.price + buy.fee);
      expect(stop.pnl!).to.be.closeTo(hand, 0.01);
    }
  });

  it('samples its equity at each candle close as the portfolio then held it: cash plus the coins at the close, by the events before it', function () {
    const candles = candlesFor(config('macd-momentum', 4), market.ticks);
    const byClose = new Map<number, number>();
    for (let i = 0; i < candles.length; i++) byClose.set(candles.time[i]! + 5 * 60_000, candles.close[i]!);
    // The events in time order (a peak moves no cash or coin), without the end-of-test sale (after the last sample).
    const timed = run.events
      .filter((e) => !(e.type === 'SimulatedTradePlaced' && e.data.tradeId.startsWith('end-of-test:')))
      .map((e) => ({ e, at: e.type === 'PositionClosed' ? Date.parse(e.data.closedAt) : e.type === 'SimulatedTradePlaced' ? Date.parse(e.data.placedAt) : 0 }));
    let state = openedWith('backtest', 10_000, START);
    let next = 0;
    let held = 0;
    for (let k = 0; k < run.equity.length - 1; k++) {
      const at = run.equity.time[k]!;
      // The events before the close (exits up to its last tick; the close's own signal fills 5 s after it).
      for (; next < timed.length && timed[next]!.at < at; next++) state = evolvePortfolio(state, timed[next]!.e);
      if (state.status !== 'open') throw new Error('not open');
      const position = state.positions.ETH;
      if (position) held++;
      const value = state.cashMicros / MICROS_PER_USD + (position ? (position.units / UNITS_PER_COIN) * byClose.get(at)! : 0);
      expect(run.equity.equity[k], `the sample at ${new Date(at).toISOString()}`).to.equal(value);
    }
    expect(held, 'samples with a position held').to.be.greaterThan(50);
    // The last sample is the final balance, after the end-of-test sale.
    expect(Math.round(run.equity.equity[run.equity.length - 1]! * 100) / 100).to.equal(run.result.finalBalance);
  });

  it('states its figures from its trades: totalTrades the closes, winRate, profit factor, final balance = capital + closed P&L', function () {
    const closes = run.trades.filter((t) => t.pnl !== null);
    const r = run.result;
    expect(r.totalTrades).to.equal(closes.length);
    const wins = closes.filter((t) => t.pnl! > 0);
    expect(r.performanceMetrics.winningTrades).to.equal(wins.length);
    expect(r.winRate).to.be.closeTo(wins.length / closes.length, 1e-8);
    const gp = wins.reduce((a, t) => a + t.pnl!, 0);
    const gl = -closes.filter((t) => t.pnl! <= 0).reduce((a, t) => a + t.pnl!, 0);
    expect(r.performanceMetrics.profitFactor).to.be.closeTo(gp / gl, 1e-7);
    expect(r.finalBalance).to.be.closeTo(10_000 + closes.reduce((a, t) => a + t.pnl!, 0), 0.01);
    expect(r.totalReturn).to.be.closeTo(r.finalBalance / 10_000 - 1, 1e-6);
    expect(r.maxDrawdown).to.be.at.least(0);
    expect(run.trades.at(-1)!.time <= new Date(START + 4 * DAY).toISOString()).to.equal(true);
  });

  it("names each signal trade tradeIdFor(signal, user), for whichever user runs over the same candles", function () {
    const c = config('macd-momentum', 4);
    const candles = candlesFor(c, market.ticks);
    for (const userId of ['user-a', 'user-b', 'user-a']) {
      const byUser = runBacktestDetail(c, market, { rules: { profile: PROFILE }, userId, candles });
      const buys = byUser.trades.filter((t) => t.side === 'BUY');
      expect(buys.length, userId).to.be.greaterThan(5);
      for (const t of byUser.trades) if (t.signalId) expect(t.tradeId, userId).to.equal(tradeIdFor(t.signalId, userId));
    }
  });

  it('runs parameter sets together, a day at a time, with the results of one run after another (trades, figures, refusals; figures-only too)', function () {
    const sets: Array<[StrategyId, Record<string, number>]> = [
      ['macd-momentum', defaults('macd-momentum')],
      ['macd-momentum', { ...defaults('macd-momentum'), fastPeriod: 8, slowPeriod: 30 }],
      ['house-signals', defaults('house-signals')],
      ['rsi-mean-reversion', { ...defaults('rsi-mean-reversion'), oversold: 40, overbought: 60 }],
    ];
    const configs = sets.map(([strategyId, parameters]) => config(strategyId, 5, { parameters }));
    const warm = Math.max(...configs.map((c) => warmUpCandles(c.strategyId, c.parameters)));
    const candles = candlesFor(configs[0]!, market.ticks, warm);
    const trailing: RiskProfile = { ...PROFILE, stopLossType: 'trailing', stopLossValue: 1 };
    for (const figuresOnly of [false, true]) {
      const days: number[] = [];
      const together = runBacktestsTogether(configs, market, { rules: { profile: trailing }, candles, figuresOnly }, (f) => days.push(f));
      expect(days.length, 'a progress report per day of candles').to.equal(Math.ceil(candles.length / 288));
      expect(days.every((f, k) => k === 0 || f > days[k - 1]!)).to.equal(true);
      expect(days.at(-1)).to.equal(1);
      configs.forEach((c, k) => {
        // Against a full run alone: figures only changes no figure, no fill count, no P&L.
        const alone = runBacktestDetail(c, market, { rules: { profile: trailing }, candles });
        expect(alone.trades.some((t) => t.reason === 'END_OF_TEST'), 'held at the end').to.equal(true);
        const got = together[k]!;
        expect(got.closedPnl, `${c.strategyId} ${k}`).to.deep.equal(alone.closedPnl);
        // (Figures only words no decision: the same refusals by the same rules.)
        expect(got.engine.refusals.map((r) => [r.signalId, r.decision.rule])).to.deep.equal(alone.engine.refusals.map((r) => [r.signalId, r.decision.rule]));
        if (!figuresOnly) {
          expect(got.result).to.deep.equal(alone.result);
          expect(got.trades).to.deep.equal(alone.trades);
          expect(got.events).to.deep.equal(alone.events);
        } else {
          expect(got.result).to.deep.equal({ ...alone.result, equityCurve: [], drawdownCurve: [] });
          expect(got.events, 'figures only: no events kept').to.deep.equal([]);
        }
      });
      expect(together.reduce((a, r) => a + r.result.fills, 0), 'trades').to.be.greaterThan(20);
    }
  });

  it('counts the BUY and SELL signals in the period and those the bot did not follow (HOLDs are neither)', function () {
    const inPeriod = run.decisions.filter((d) => tickAt(intendedFillMs(d.timeMs)) < tickAt(START + 4 * DAY));
    const asked = inPeriod.filter((d) => d.decision === BUY || d.decision === SELL);
    expect(run.result.signals).to.equal(asked.length);
    expect(run.result.signals).to.be.greaterThan(20);
    // Every signal asked gets an outcome (HOLDs too, skipped as HOLD_SIGNAL); those not traded are counted.
    const isHold = (o: (typeof run.engine.outcomes)[number]) => o.decision.action === 'SKIP' && o.decision.reason === 'HOLD_SIGNAL';
    expect(run.engine.outcomes.filter((o) => !isHold(o)).length).to.equal(asked.length);
    const notFollowed = run.engine.outcomes.filter((o) => !isHold(o) && o.action !== 'TRADE');
    expect(run.result.refusedSignals).to.equal(notFollowed.length);
    expect(run.result.refusedSignals).to.be.greaterThan(0);
  });

  it('starts with the capital asked: ten times the capital buys ten times the coins', function () {
    const big = runBacktestDetail(config('macd-momentum', 1, { initialCapital: 100_000 }), market, { rules: { profile: PROFILE } });
    const small = runBacktestDetail(config('macd-momentum', 1), market, { rules: { profile: PROFILE } });
    const b = big.trades.find((t) => t.side === 'BUY')!;
    const s = small.trades.find((t) => t.side === 'BUY')!;
    expect(b.time).to.equal(s.time);
    expect(b.amount / s.amount).to.be.closeTo(10, 0.01);
  });

  it('the cached market changes no number: the same run over the plain path and charts', function () {
    const plain: BacktestMarket = { ticks: pathTicks(sim.path), charts: (c, d, t) => sim.chart(c, d, t) };
    const again = runBacktestDetail(config('macd-momentum', 4), plain, { rules: { profile: PROFILE } });
    expect(again.events).to.deep.equal(run.events);
  });

  it('no look-ahead: a run ending at t reads nothing after t and trades as a longer run did before t', function () {
    const t = START + 2 * DAY + 3_600_000;
    const bound = tickAt(t) - 1;
    const bounded: BacktestMarket = {
      ticks: cachedTicks(sim, () => bound),
      charts: ((coinId: CoinId, days: number, endMs: number) => {
        if (endMs > t) throw new RangeError(`a chart ending at ${new Date(endMs).toISOString()} is after t`);
        return sim.chart(coinId, days, endMs);
      }) as ChartAt,
    };
    const short = runBacktestDetail(config('macd-momentum', 4, { endMs: t }), bounded, { rules: { profile: PROFILE } });
    const before = (trades: typeof run.trades) => trades.filter((x) => x.reason !== 'END_OF_TEST' && Date.parse(x.time) < t);
    expect(before(short.trades)).to.deep.equal(before(run.trades));
    expect(before(short.trades).length).to.be.greaterThan(3);
  });

  it('no look-ahead: with the market after t replaced by another one, every trade before t is the same', function () {
    const t = START + 2 * DAY + 3_600_000;
    const tick = tickAt(t);
    const other = new MarketSimulation(Uint32Array.from([99, 9, 9, 9, 9, 9, 9, 9]));
    const a = cachedTicks(sim);
    const b = cachedTicks(other);
    const spliced: PriceTicks = {
      lastTick: () => Number.MAX_SAFE_INTEGER,
      price: (c, k) => (k < tick ? a.price(c, k) : b.price(c, k)),
      minuteCandles: (c, from, count, out) => {
        a.minuteCandles(c, from, count, out);
        const tmp = b.minuteCandles(c, from, count, { time: new Float64Array(count), open: new Float64Array(count), high: new Float64Array(count), low: new Float64Array(count), close: new Float64Array(count), volume: new Float64Array(count) });
        for (let i = 0; i < count; i++) if ((from + i + 1) * TICKS_PER_MINUTE > tick) for (const f of ['open', 'high', 'low', 'close', 'volume'] as const) out[f][i] = tmp[f][i]!;
        return out;
      },
      minuteVolume: (c, m) => ((m + 1) * TICKS_PER_MINUTE <= tick ? a.minuteVolume(c, m) : b.minuteVolume(c, m)),
      range: (c, from, to) => {
        let high = -Infinity;
        let low = Infinity;
        for (let k = from; k < to; k++) {
          const p = k < tick ? a.price(c, k) : b.price(c, k);
          high = Math.max(high, p);
          low = Math.min(low, p);
        }
        return { high, low };
      },
    };
    const charts = cachedCharts(sim);
    const otherCharts = cachedCharts(other);
    const market: BacktestMarket = { ticks: spliced, charts: (c, d, e) => (e <= t ? charts(c, d, e) : otherCharts(c, d, e)) };
    const changed = runBacktestDetail(config('macd-momentum', 4), market, { rules: { profile: PROFILE } });
    const before = (trades: typeof run.trades) => trades.filter((x) => Date.parse(x.time) < t);
    expect(before(changed.trades)).to.deep.equal(before(run.trades));
    expect(changed.trades.filter((x) => Date.parse(x.time) >= t), 'the future did change').to.not.deep.equal(run.trades.filter((x) => Date.parse(x.time) >= t));
  });
});

describe('backtest metrics, by hand', function () {
  it('Sharpe from daily returns x sqrt(365), volatility, drawdown from the peak, profit factor, win rate', function () {
    const s = new EquitySeries(2);
    // Three days' closing equity 110, 99, 108.9 from 100: returns +10 %, -10 %, +10 %.
    for (const [t, e] of [[0.5, 105], [1, 110], [1.5, 100], [2, 99], [2.5, 104], [3, 108.9]] as const) s.push(Date.UTC(2025, 0, 1) + t * DAY - 1, e);
    const r = dailyReturns(s, 100);
    expect(r.map((x) => Number(x.toFixed(10)))).to.deep.equal([0.1, -0.1, 0.1]);
    const mean = 0.1 / 3;
    const sd = Math.sqrt(((0.1 - mean) ** 2 * 2 + (-0.1 - mean) ** 2) / 2);
    const f = figuresOf(s, [30, -10, -5, 0], 100, 108.9);
    expect(f.sharpeRatio).to.be.closeTo((mean / sd) * Math.sqrt(365), 1e-6);
    expect(f.performanceMetrics.volatility).to.be.closeTo(sd * Math.sqrt(365), 1e-6);
    expect(f.maxDrawdown).to.be.closeTo(0.1, 1e-8); // 110 -> 99
    expect(maxDrawdownOf(s, 100)).to.be.closeTo(0.1, 1e-12);
    expect(f.totalTrades).to.equal(4);
    expect(f.winRate).to.equal(0.25);
    expect(f.performanceMetrics).to.deep.include({ winningTrades: 1, losingTrades: 3, averageWin: 30, averageLoss: -5, profitFactor: 2 });
    expect(f.totalReturn).to.be.closeTo(0.089, 1e-8);
    expect(figuresOf(s, [5, 6], 100, 111).performanceMetrics.profitFactor, 'no loss: null').to.equal(null);
    expect(figuresOf(s, [-5], 100, 95).performanceMetrics.profitFactor, 'no win: 0').to.equal(0);
    const one = new EquitySeries();
    one.push(0, 100);
    expect(figuresOf(one, [], 100, 100).sharpeRatio, 'one day: no Sharpe').to.equal(null);
  });

  it('running figures (a figures-only run keeps no samples) are the samples\' to the last bit: drawdown, daily returns, the figures', function () {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const initial = run % 7 === 0 ? 0 : 50 + next() * 100;
      const s = new EquitySeries(1);
      const r = new RunningEquity(initial);
      let t = Date.UTC(2025, 0, 1) + Math.floor(next() * DAY);
      const n = Math.floor(next() * 40);
      for (let i = 0; i < n; i++) {
        // Several samples a day or days apart; equity falling to zero and below too.
        t += Math.floor(next() * (next() < 0.7 ? DAY / 3 : 3 * DAY));
        const e = next() < 0.05 ? (next() < 0.5 ? 0 : -10) : initial * (0.5 + next());
        s.push(t, e);
        r.push(t, e);
      }
      expect(r.length).to.equal(s.length);
      expect(r.maxDrawdown(), `run ${run}`).to.equal(maxDrawdownOf(s, initial));
      expect(r.dailyReturns(), `run ${run}`).to.deep.equal(dailyReturns(s, initial));
      const pnl = [3, -2, 0.5];
      expect(figuresOf(r, pnl, initial, 101), `run ${run}`).to.deep.equal(figuresOf(s, pnl, initial, 101));
    }
    expect(() => figuresOf(new RunningEquity(100), [], 99, 99)).to.throw(RangeError);
  });

  it('downsamples the curves to at most 1,000 points, keeping the deepest drawdown', function () {
    const s = new EquitySeries();
    for (let i = 0; i < 10_000; i++) s.push(i * 60_000, i === 5_003 ? 50 : 100 + Math.sin(i / 100));
    const { equityCurve, drawdownCurve } = curvesOf(s, 100);
    expect(equityCurve.length).to.be.at.most(1000);
    expect(drawdownCurve.length).to.equal(equityCurve.length);
    expect(Math.max(...drawdownCurve.map((p) => p.drawdown))).to.be.closeTo(maxDrawdownOf(s, 100), 1e-8);
    expect(equityCurve.at(-1)!.equity).to.equal(Math.round(s.equity[9_999]! * 100) / 100);
  });
});

describe('backtest metrics at their edges, by hand', function () {
  const D0 = Date.UTC(2025, 0, 1, 12);
  const series = (points: Array<[number, number]>) => {
    const s = new EquitySeries(2);
    for (const [day, equity] of points) s.push(D0 + day * DAY, equity);
    return s;
  };

  it('averages each side over its own trades; two daily returns are enough for a Sharpe; none, no volatility', function () {
    const s = series([[0, 100], [1, 110], [2, 99]]);
    const f = figuresOf(s, [10, 20, -5, -10], 100, 115);
    expect(f.performanceMetrics).to.deep.include({ winningTrades: 2, losingTrades: 2, averageWin: 15, averageLoss: -7.5, profitFactor: 2 });
    // Returns +10 %, -10 %: mean 0, so a Sharpe of 0, not none.
    expect(figuresOf(series([[0, 110], [1, 99]]), [], 100, 99).sharpeRatio).to.equal(0);
    expect(figuresOf(new EquitySeries(), [], 100, 100)).to.deep.include({ sharpeRatio: null, totalTrades: 0, winRate: 0 });
    expect(figuresOf(new EquitySeries(), [], 100, 100).performanceMetrics).to.deep.include({ volatility: 0, averageWin: 0, averageLoss: 0, profitFactor: null });
    // A trade closed at exactly 0 counts as not won, and is no gross loss: wins and it have no profit factor (not 0, the worst).
    expect(figuresOf(s, [5, 0], 100, 105).performanceMetrics).to.deep.include({ winningTrades: 1, losingTrades: 1, profitFactor: null });
    expect(figuresOf(s, [-4, 0], 100, 96).performanceMetrics.profitFactor).to.equal(0);
  });

  it('refuses running figures counted from another capital than the one asked', function () {
    expect(() => figuresOf(new RunningEquity(100), [], 200, 200)).to.throw(RangeError, 'equity counted from 100, figures asked from 200');
  });

  it('cuts the curves into equal spans of time: each span\'s last equity and its deepest drawdown, when it was', function () {
    // Days 0..3 at 100, 90, 95, 120 in 3 spans of a day: [100], [90], [95, 120].
    const { equityCurve, drawdownCurve } = curvesOf(series([[0, 100], [1, 90], [2, 95], [3, 120]]), 100, 3);
    const at = (day: number) => new Date(D0 + day * DAY).toISOString();
    expect(equityCurve).to.deep.equal([
      { time: at(0), equity: 100 },
      { time: at(1), equity: 90 },
      { time: at(3), equity: 120 },
    ]);
    expect(drawdownCurve).to.deep.equal([
      { time: at(0), drawdown: 0 },
      { time: at(1), drawdown: 0.1 },
      { time: at(2), drawdown: 0.05 },
    ]);
  });
});
