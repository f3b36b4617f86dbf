/**
 * The paper engine over a day of the simulated market: a bot following a signal per 5-minute candle,
 * with tight stops so they fire often. Every fill and every stop or target execution is a tick of
 * the path (its mid lies within the high and low of its 1m, 5m, 15m, 1h, 4h and 1d candles, for fixed
 * and trailing stops), priced at that mid plus or less the spread and impact; each close is the
 * first crossing since its position opened; a bot order fills 5 s after its candle's close, or late
 * when the bot handled it late.
 */
import { expect } from 'chai';
import { coinById, findCoinBySymbol, halfSpreadOf, type CoinId } from '../../market/coins';
import { tickAt, TICK_MS, TICKS_PER_DAY, TICKS_PER_MINUTE } from '../../market/market-path';
import { MarketSimulation } from '../../market/simulation';
import { DEFAULT_RISK_PROFILE, type RiskProfile } from '../contracts';
import { STARTING_CASH_MICROS } from '../money';
import { evolvePortfolio, initialPortfolioState, type PortfolioState, type Position, type PositionClosed, type SimulatedTradePlaced } from '../portfolio';
import { avgEntryPrice } from '../portfolio-valuation';
import { newExitHit, scanExits, type ExitSpec } from './exit-scan';
import type { ChartAt } from './market-at';
import { pathTicks } from './price-ticks';
import { PaperEngine, runPaperEngine, type EngineSignal } from './paper-engine';

const KEY = Uint32Array.from([20260105, 1, 2, 3, 4, 5, 6, 7]);
// Made in the describe's hook (freshMarket), not as the file loads.
let sim: MarketSimulation;
let ticks: ReturnType<typeof pathTicks>;
const charts: ChartAt = (coinId, days, endMs) => sim.chart(coinId, days, endMs);
/** A new simulation of KEY: the market every spec here reads. */
function freshMarket(): void {
  sim = new MarketSimulation(KEY);
  ticks = pathTicks(sim.path);
}
const DAY_MS = Date.UTC(2026, 0, 5);
const DAY = tickAt(DAY_MS);
const COINS: CoinId[] = ['ethereum', 'bitcoin', 'solana', 'uniswap'];
const WIDTHS = [1, 5, 15, 60, 240, 1440];

/** A portfolio opened with the starting cash before the day, nothing traded. */
function openedPortfolio(): PortfolioState {
  return evolvePortfolio(initialPortfolioState(), { type: 'PortfolioOpened', data: { userId: 'u3', startingCashMicros: STARTING_CASH_MICROS, openedAt: new Date(DAY_MS - 3_600_000).toISOString() } });
}

/** A signal per coin and closed 5-minute candle: BUY after an up candle, SELL after a down one. */
function daySignals(): EngineSignal[] {
  const signals: EngineSignal[] = [];
  const candles = new Map(COINS.map((c) => [c, sim.candles(c, DAY_MS, DAY_MS + 86_400_000 - 1, 5)]));
  for (let i = 0; i < 288; i++) {
    for (const coinId of COINS) {
      const c = candles.get(coinId)![i]!;
      const candleTime = new Date(c.time).toISOString();
      signals.push({ eventId: `e-${coinId}-${i}`, signalId: `s-${coinId}-${i}`, type: c.close >= c.open ? 'BUY' : 'SELL', symbol: coinById(coinId).symbol, price: c.close, confidence: 70, candleTime });
    }
  }
  return signals;
}

type Execution = NonNullable<SimulatedTradePlaced['data']['execution']>;

function executions(engine: PaperEngine): Array<{ coinId: CoinId; side: 'BUY' | 'SELL'; price: number; quantity: number; execution: Execution; close?: PositionClosed['data'] }> {
  return engine.events.flatMap((e) => {
    if (e.type === 'SimulatedTradePlaced') return [{ coinId: e.data.coinId, side: e.data.side, price: e.data.price, quantity: e.data.quantity, execution: e.data.execution! }];
    if (e.type === 'PositionClosed') return [{ coinId: e.data.coinId, side: 'SELL' as const, price: e.data.price, quantity: e.data.quantity, execution: e.data.execution!, close: e.data }];
    return [];
  });
}

describe('engine: a day of bot trades and stops on the path', function () {
  this.timeout(60_000);
  // Tight levels (a 0.5 % stop, a 0.8 % target) so they fire often; the entry rules that would refuse
  // most of these signals (reward/risk, correlation, volatility) opened wide: this spec is about fills.
  const profile: RiskProfile = { ...DEFAULT_RISK_PROFILE, stopLossValue: 0.5, takeProfitRatio: 1.6, maxPositionSize: 10, maxDailyLoss: 10_000, maxConcurrentTrades: 4, riskRewardRatio: 0.5, correlationLimit: 1, volatilityThreshold: 100 };
  const rules = { profile };
  // The runs happen in a hook, not as the file loads, on a simulation made there: a mutation test
  // loads the specs once and then runs them with each mutant active, so a run made at load would never
  // see a mutant, and a simulation kept across the runs would keep its caches from an earlier mutant.
  let signals: EngineSignal[];
  let fixed: PaperEngine;
  let trailing: PaperEngine;
  before(function () {
    freshMarket();
    signals = daySignals();
    fixed = runPaperEngine({ ticks, charts, userId: 'u1', rules }, signals, DAY + TICKS_PER_DAY - 1);
    trailing = runPaperEngine({ ticks, charts, userId: 'u1', rules: { profile: { ...profile, stopLossType: 'trailing' } } }, signals, DAY + TICKS_PER_DAY - 1);
  });

  for (const [name, engineOf] of [['fixed stops', () => fixed], ['trailing stops', () => trailing]] as const) {
    it(`fills every order and executes every stop and target at a tick inside its 1m to 1d candles (${name})`, function () {
      const all = executions(engineOf());
      const closes = all.filter((x) => x.close);
      expect(all.length, 'trades').to.be.greaterThan(100);
      expect(closes.filter((x) => x.close!.reason === 'STOP_LOSS').length, 'stop losses').to.be.greaterThan(10);
      expect(closes.filter((x) => x.close!.reason === 'TAKE_PROFIT').length, 'take profits').to.be.greaterThan(5);
      for (const { coinId, side, price, quantity, execution } of all) {
        const at = Date.parse(execution.filledAt);
        expect((at - DAY_MS) % TICK_MS, 'on a tick').to.equal(0);
        expect(execution.mid, execution.filledAt).to.equal(sim.path.price(coinId, tickAt(at)));
        for (const width of WIDTHS) {
          const [candle] = sim.candles(coinId, at, at, width);
          expect(candle!.time).to.be.at.most(at);
          expect(execution.mid, `${coinId} ${execution.filledAt} in its ${width}m candle`).to.be.within(candle!.low, candle!.high);
        }
        const { mid, halfSpread, impact } = execution;
        expect(halfSpread).to.equal(halfSpreadOf(coinId));
        expect(impact).to.be.within(0, 1e-3);
        expect(price, 'the fill is the mid with the costs').to.equal(side === 'BUY' ? mid * (1 + halfSpread + impact) : mid * (1 - halfSpread - impact));
        expect(quantity).to.be.greaterThan(0);
      }
    });
  }

  it('closes each position at the first tick at or beyond its level since its opening fill, at that tick\'s price and time', function () {
    const opened = new Map<string, number>();
    for (const e of fixed.events) {
      if (e.type === 'SimulatedTradePlaced' && e.data.side === 'BUY') opened.set(e.data.tradeId, tickAt(Date.parse(e.data.execution!.filledAt)));
      if (e.type !== 'PositionClosed') continue;
      const { execution } = e.data;
      const from = opened.get(e.data.positionId)!;
      const at = tickAt(Date.parse(execution!.filledAt));
      const level = execution!.level!;
      const crossed = (p: number) => (e.data.reason === 'STOP_LOSS' ? p <= level : p >= level);
      const path = sim.path.ticks(findCoinBySymbol(e.data.symbol)!.id, from + 1, new Float64Array(at - from));
      expect(path.findIndex(crossed), `${e.data.positionId}: the first crossing`).to.equal(path.length - 1);
      expect(e.data.closedAt).to.equal(execution!.filledAt);
      expect(crossed(execution!.mid), 'the mid is the crossing tick, at or beyond the level').to.equal(true);
    }
  });

  it('fills a bot order at the tick 5 s after its candle closed, or at the live tick when the bot handled the signal late', function () {
    const buys = fixed.events.filter((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced' && e.data.source.kind === 'SIGNAL');
    for (const b of buys) {
      const close = Date.parse(b.data.source.kind === 'SIGNAL' ? b.data.source.candleTime : '') + 5 * 60_000;
      expect(b.data.execution).to.include({ filledAt: new Date(close + 5000).toISOString(), intendedAt: new Date(close + 5000).toISOString(), delayMs: 0 });
      expect(b.data.placedAt).to.equal(b.data.execution!.filledAt);
    }
    const first = signals.find((s) => s.type === 'BUY')!;
    const late = new PaperEngine({ ticks, charts, userId: 'u2', rules });
    const handled = Date.parse(first.candleTime) + 5 * 60_000 + 93_700;
    late.onSignal({ ...first, handledAtMs: handled });
    const placed = late.events.find((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced')!;
    expect(placed.data.execution).to.include({ filledAt: new Date(handled - 3700).toISOString(), delayMs: 90_000 - 5000 });
    expect(placed.data.execution!.mid).to.equal(sim.path.price(findCoinBySymbol(first.symbol)!.id, tickAt(handled)));
  });

  it('replays the risk monitor\'s recorded peaks, so the drawdown rule refuses as live, and records the refusal as the bot does', function () {
    const buys = signals.filter((x) => x.type === 'BUY').slice(0, 3);
    const first = Date.parse(buys[0]!.candleTime);
    // A peak of 12,000 recorded before the first signal: at 10,000 the portfolio is 16.7 % below it, above the 15 % maximum.
    const peaked = runPaperEngine({ ticks, charts, userId: 'u3', rules, peaks: [{ atMs: first - 60_000, valueMicros: 12_000_000_000 }], portfolio: openedPortfolio() }, buys, DAY + 1000);
    expect(peaked.events.filter((e) => e.type === 'SimulatedTradePlaced')).to.deep.equal([]);
    expect(peaked.events[0]).to.deep.equal({ type: 'PortfolioPeakRecorded', data: { userId: 'u3', valueMicros: 12_000_000_000, recordedAt: new Date(first - 60_000).toISOString() } });
    expect(peaked.refusals.map((r) => [r.signalId, r.decision.rule])).to.deep.equal(buys.map((b) => [b.signalId, 'MAX_DRAWDOWN']));
    const refusal = peaked.refusals[0]!;
    expect(refusal).to.deep.include({ userId: 'u3', signalEventId: buys[0]!.eventId, symbol: buys[0]!.symbol, signalType: 'BUY', candleTime: buys[0]!.candleTime, refusedAt: new Date(first + 5 * 60_000 + 5000).toISOString() });
    expect(refusal.decision.text).to.match(/^refused: drawdown 16\.67% from the peak \$12,000\.00 is above the maximum 15%$/);
    const unpeaked = runPaperEngine({ ticks, charts, userId: 'u3', rules, peaks: [], portfolio: openedPortfolio() }, buys, DAY + 1000);
    expect(unpeaked.events.filter((e) => e.type === 'SimulatedTradePlaced').length, 'without the peak the same signals trade').to.be.greaterThan(0);
  });

  it('finds the crossing a plain scan finds when a position\'s levels change while it is open (the cursor carries over, the new levels apply from the last tick asked)', function () {
    // One BUY; its levels: a trailing stop 20 % below the highest (no crossing in a day), then from
    // `switchTick` on 0.3 % (crossed within minutes). The engine is asked at every candle close, as a
    // backtest asks.
    const buy = signals.find((x) => x.type === 'BUY' && x.symbol === 'ETH')!;
    let levels: ExitSpec | null = null;
    const spec = (position: Position): ExitSpec => (levels ??= { stopLoss: Number.NEGATIVE_INFINITY, trail: 0.2, entry: avgEntryPrice(position), takeProfit: Number.POSITIVE_INFINITY });
    const engine = new PaperEngine({ ticks, charts, userId: 'u4', rules, exitSpec: spec });
    engine.onSignal(buy);
    const bought = engine.events.find((e): e is SimulatedTradePlaced => e.type === 'SimulatedTradePlaced')!;
    const opened = tickAt(Date.parse(bought.data.placedAt));
    const switchTick = opened + 30 * TICKS_PER_MINUTE;
    for (let t = opened + 60; t < switchTick; t += 60) engine.advanceTo(t);
    const wide = levels!;
    const tight: ExitSpec = { ...wide, trail: 0.003 };
    levels = tight;
    for (let t = switchTick; t < opened + TICKS_PER_DAY && !engine.events.some((e) => e.type === 'PositionClosed'); t += 60) engine.advanceTo(t);
    const closed = engine.events.find((e): e is PositionClosed => e.type === 'PositionClosed');
    expect(closed, 'the tight stop closed the position').to.not.equal(undefined);

    // The plain scan: the wide levels up to the last tick asked before the switch, the tight ones after.
    const coinId = findCoinBySymbol('ETH')!.id;
    const cursor = { tick: opened, highest: Number.NaN };
    const hit = newExitHit();
    expect(scanExits(ticks, coinId, wide, cursor, switchTick - 60, hit), 'no crossing under the wide levels').to.equal(false);
    let found = false;
    for (let t = cursor.tick + 60; !found; t += 60) found = scanExits(ticks, coinId, tight, cursor, t, hit);
    expect(tickAt(Date.parse(closed!.data.closedAt)), 'the tick of the first crossing').to.equal(hit.tick);
    expect(closed!.data.execution).to.include({ mid: hit.price, level: hit.level });
  });

  it('gives the same events when each 5-minute candle\'s range is handed to the exit scan, as a backtest does (fixed and trailing stops)', function () {
    const eth: CoinId = 'ethereum';
    // A signal every fourth candle, so positions stay open over candles with no signal (whose ranges the scan may skip).
    // (The signals' fills are 5 s after a close: the engine scans one tick into the next candle before each.)
    const ethSignals = signals.filter((s) => s.symbol === 'ETH');
    const candles = sim.candles(eth, DAY_MS, DAY_MS + 86_400_000 - 1, 5);
    expect(candles.length).to.equal(ethSignals.length);
    for (const p of [profile, { ...profile, stopLossType: 'trailing' as const }]) {
      const sparse = ethSignals.filter((_, i) => i % 4 === 0);
      const plain = runPaperEngine({ ticks, charts, userId: 'u1', rules: { profile: p } }, sparse, DAY + TICKS_PER_DAY - 1);
      const engine = new PaperEngine({ ticks, charts, userId: 'u1', rules: { profile: p } });
      const known = { coinId: eth, from: -1, high: Number.NaN, low: Number.NaN };
      let skipped = 0;
      candles.forEach((c, i) => {
        known.from = tickAt(c.time);
        known.high = c.high;
        known.low = c.low;
        // After a signal's candle every position was scanned into this candle (to the fill tick) or opened
        // in it: its range must not be used, so it is given as one that crosses nothing, which would skip all.
        if (i % 4 === 1) {
          known.high = 0;
          known.low = Number.POSITIVE_INFINITY;
        }
        const before = engine.state.status === 'open' && engine.state.positions.ETH !== undefined;
        engine.advanceTo(tickAt(c.time + 300_000) - 1, known);
        if (before && engine.state.status === 'open' && engine.state.positions.ETH !== undefined) skipped++;
        if (i % 4 === 0) engine.onSignal(ethSignals[i]!);
      });
      engine.advanceTo(DAY + TICKS_PER_DAY - 1);
      const closes = plain.events.filter((e): e is PositionClosed => e.type === 'PositionClosed');
      expect(closes.length, `${p.stopLossType}: closes`).to.be.greaterThan(5);
      expect(skipped, `${p.stopLossType}: candles a position lived through`).to.be.greaterThan(30);
      expect(engine.events, p.stopLossType).to.deep.equal(plain.events);
      // Another coin's range says nothing of ETH's ticks: one that crosses nothing, given at every candle, changes nothing.
      const other = new PaperEngine({ ticks, charts, userId: 'u1', rules: { profile: p } });
      const elsewhere = { coinId: 'bitcoin' as CoinId, from: -1, high: 0, low: Number.POSITIVE_INFINITY };
      candles.forEach((c, i) => {
        elsewhere.from = tickAt(c.time);
        other.advanceTo(tickAt(c.time + 300_000) - 1, elsewhere);
        if (i % 4 === 0) other.onSignal(ethSignals[i]!);
      });
      other.advanceTo(DAY + TICKS_PER_DAY - 1);
      expect(other.events, `${p.stopLossType}, another coin's range`).to.deep.equal(plain.events);
    }
  });

  it('gives the same events quoting only the signal\'s coin and the coins held as quoting all ten (four coins traded, several held at once)', function () {
    const held = runPaperEngine({ ticks, charts, userId: 'u1', rules, quoteHeldOnly: true }, signals, DAY + TICKS_PER_DAY - 1);
    expect(held.events).to.deep.equal(fixed.events);
    // Several coins held at once at some fill, so the held coins' quotes are what value the portfolio.
    let most = 0;
    let state = openedPortfolio();
    for (const e of fixed.events) {
      state = evolvePortfolio(state, e);
      if (state.status === 'open') most = Math.max(most, Object.keys(state.positions).length);
    }
    expect(most).to.be.at.least(2);
  });

  it('gives the same events run again (a pure function of the signals and the path)', function () {
    const fresh = new MarketSimulation(KEY, { fresh: true });
    const again = runPaperEngine({ ticks: pathTicks(fresh.path), charts: (c, d, t) => fresh.chart(c, d, t), userId: 'u1', rules }, signals, DAY + TICKS_PER_DAY - 1);
    expect(again.events).to.deep.equal(fixed.events);
    expect(TICKS_PER_MINUTE).to.equal(12);
  });
});
