/**
 * The strategies' decisions: the candles are the live feed's to the bit; each rule strategy decides
 * exactly where the indicators of market/indicators cross (hand-checked on a tiny series too); the
 * house strategy gives the live signal engine's signals, candle for candle; no decision reads a later
 * candle (the decisions up to t survive any change after t); a run started a week earlier decides the
 * same after the warm-up.
 */
import { expect } from 'chai';
import { readingsOfLastCandle, closedCandles } from '../signals/readings';
import { evaluateSignal } from '../signals/signal.decider';
import { evolveSignal, initialSignalState, type SignalState } from '../signals/signal';
import { macd, rsi, sma } from '../market/indicators';
import { MarketSimulation } from '../market/simulation';
import { pathTicks } from '../trading/engine/price-ticks';
import { emptyCandles, loadCandles, type Candles } from './candles';
import { findStrategy, strategyIds, type StrategyId } from './contracts';
import { houseSignals, houseStats } from './house-signals';
import { BUY, HOLD, maCrossover, NO_SIGNAL, rsiMeanReversion, SELL, strategyDecisions, warmUpCandles } from './strategies';

const KEY = Uint32Array.from([18, 1, 2, 3, 4, 5, 6, 7]);
const FIVE = 5 * 60_000;
const DAY = 86_400_000;
const defaults = (id: StrategyId) => Object.fromEntries(Object.entries(findStrategy(id)!.parameters).map(([k, v]) => [k, v.default]));

function columns(closes: number[]): Candles {
  const c = emptyCandles(closes.length, 5);
  closes.forEach((x, i) => {
    c.time[i] = i * FIVE;
    c.open[i] = c.high[i] = c.low[i] = c.close[i] = x;
    c.volume[i] = 1;
  });
  return c;
}

describe('backtest strategies', function () {
  this.timeout(120_000);
  const start = Date.UTC(2025, 2, 3);
  // The simulation, its market and the data read from it are made in a hook, not as the file loads: a
  // mutation test loads the specs once and then runs them with each mutant active, and a simulation
  // kept across those runs would keep its caches (paths, candles) from an earlier mutant.
  let sim: MarketSimulation;
  let ticks: ReturnType<typeof pathTicks>;
  let candles: Candles;
  before(function () {
    sim = new MarketSimulation(KEY);
    ticks = pathTicks(sim.path);
    candles = loadCandles(ticks, 'ethereum', start, start + 20 * DAY, 5);
  });

  it('folds the path minute candles into the 5-minute candles the live feed serves, to the bit', function () {
    const live = sim.candles('ethereum', start, start + 3 * DAY - 1, 5);
    for (let i = 0; i < 3 * 288; i++) {
      const c = live[i]!;
      expect([candles.time[i], candles.open[i], candles.high[i], candles.low[i], candles.close[i], candles.volume[i]], `candle ${i}`).to.deep.equal([c.time, c.open, c.high, c.low, c.close, c.volume]);
    }
    expect(candles.length).to.equal(20 * 288);
  });

  it('moving-average crossover: hand-checked on a tiny series (fast 2, slow 3)', function () {
    // closes 5 5 5 4 3 6 9 ... sma2 - sma3 at i=2: 0; i=3: 4.5-4.667<0 SELL; i=4: 3.5-4<0; i=5: 4.5-4.333>0 BUY
    const out = maCrossover(Float64Array.from([5, 5, 5, 4, 3, 6, 9]), 7, 2, 3, new Int8Array(7));
    expect(Array.from(out)).to.deep.equal([0, 0, 0, SELL, 0, BUY, 0]);
  });

  it('a cross is a change of side: a line that touches its level and goes back crosses nothing; one that leaves it does (hand-checked)', function () {
    // sma(1) - sma(2) is half the last change: 1 2 2 1 1 2 gives NaN, +0.5, 0, -0.5, 0, +0.5.
    expect(Array.from(maCrossover(Float64Array.from([1, 2, 2, 1, 1, 2]), 6, 1, 2, new Int8Array(6)))).to.deep.equal([0, 0, 0, SELL, 0, BUY]);
    // RSI(1) is 100 after a rise, 0 after a fall, 50 when flat: 1 2 2 1 1 2 2 gives NaN, 100, 50, 0, 50, 100, 50.
    // With both levels at 50: entering below 50 from 50 is a BUY, entering above it from 50 a SELL; touching 50 is neither.
    expect(Array.from(rsiMeanReversion(Float64Array.from([1, 2, 2, 1, 1, 2, 2]), 7, 1, 50, 50, new Int8Array(7)))).to.deep.equal([0, 0, 0, BUY, 0, SELL, 0]);
  });

  it('each rule strategy decides exactly where the library indicators cross', function () {
    const n = candles.length;
    const close = candles.close.subarray(0, n);
    const check = (id: StrategyId, expected: (i: number) => number) => {
      const out = strategyDecisions(id, defaults(id), candles, new Int8Array(n));
      let signals = 0;
      for (let i = 2; i < n; i++) {
        expect(out[i], `${id} at ${i}`).to.equal(expected(i));
        if (out[i] !== NO_SIGNAL) signals++;
      }
      expect(signals, `${id} signals`).to.be.greaterThan(20);
    };
    const r = rsi(close, 14);
    check('rsi-mean-reversion', (i) => (r[i]! < 30 && r[i - 1]! >= 30 ? BUY : r[i]! > 70 && r[i - 1]! <= 70 ? SELL : NO_SIGNAL));
    const f = sma(close, 10);
    const s = sma(close, 30);
    check('ma-crossover', (i) => {
      const d = f[i]! - s[i]!;
      const p = f[i - 1]! - s[i - 1]!;
      return d > 0 && p <= 0 ? BUY : d < 0 && p >= 0 ? SELL : NO_SIGNAL;
    });
    const m = macd(close, { fast: 12, slow: 26, signal: 9 });
    check('macd-momentum', (i) => {
      const h = m.histogram[i]!;
      const p = m.histogram[i - 1]!;
      return h > 0 && p <= 0 ? BUY : h < 0 && p >= 0 ? SELL : NO_SIGNAL;
    });
  });

  it('house-signals gives the live signal engine signal for signal: each 5-minute close, the last day of candles, the decider', function () {
    const from = Date.UTC(2025, 2, 5);
    const days = 2;
    const c = loadCandles(ticks, 'ethereum', from - 2 * DAY, from + days * DAY, 5);
    const out = new Int8Array(c.length);
    const confidence = new Uint8Array(c.length);
    houseSignals(c, { rsiOversold: 30, rsiOverbought: 70, scoreThreshold: 0.25 }, out, confidence);
    let state: SignalState = initialSignalState();
    let compared = 0;
    for (let i = 0; i < c.length; i++) {
      const close = c.time[i]! + FIVE;
      if (close < from - FIVE) continue;
      // As the live engine: at the close plus a second, the chart of a day, its closed candles, the decider.
      const series = sim.chart('ethereum', 1, close + 1000);
      const last = readingsOfLastCandle(closedCandles(series.candles, 5, close + 1000))!;
      expect(last.candle.time).to.equal(c.time[i]);
      const candleTime = new Date(last.candle.time).toISOString();
      const events = evaluateSignal({ type: 'EvaluateSignal', data: { signalId: `s${i}`, symbol: 'ETH', candleTime, readings: last.readings } }, state);
      for (const e of events) state = evolveSignal(state, e);
      if (close < from) continue; // the first evaluation only sets the state
      const live = events[0];
      const mine = out[i]!;
      expect(mine === NO_SIGNAL ? 'none' : mine === BUY ? 'BUY' : mine === SELL ? 'SELL' : 'HOLD', `candle ${candleTime}`).to.equal(live ? live.data.type : 'none');
      if (live) expect(confidence[i], `confidence ${candleTime}`).to.equal(live.data.confidence);
      compared++;
    }
    expect(compared).to.equal(days * 288 + 1);
    expect(Array.from(out).filter((d) => d === BUY || d === SELL).length, 'BUY and SELL signals').to.be.greaterThan(20);
    expect(Array.from(out).filter((d) => d === HOLD).length, 'HOLD signals').to.be.greaterThan(5);
  });

  it('no look-ahead: the decisions up to a candle are unchanged when every later candle is changed', function () {
    const n = candles.length;
    const cut = Math.floor(n * 0.6);
    const changed = emptyCandles(n, 5);
    for (const f of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) changed[f].set(candles[f]);
    // After the cut: another coin's path, rescaled to start where ETH was (a different future).
    const other = loadCandles(ticks, 'solana', start, start + 20 * DAY, 5);
    const scale = candles.close[cut]! / other.close[cut]!;
    for (let i = cut + 1; i < n; i++) {
      changed.close[i] = other.close[i]! * scale;
      changed.high[i] = other.high[i]! * scale;
      changed.low[i] = other.low[i]! * scale;
      changed.volume[i] = other.volume[i]! * 3;
    }
    for (const id of strategyIds) {
      const a = strategyDecisions(id, defaults(id), candles, new Int8Array(n));
      const b = strategyDecisions(id, defaults(id), changed, new Int8Array(n));
      expect(Array.from(b.subarray(0, cut + 1)), `${id}: decisions up to the cut`).to.deep.equal(Array.from(a.subarray(0, cut + 1)));
      expect(Array.from(b.subarray(cut + 1)), `${id}: the change is real`).to.not.deep.equal(Array.from(a.subarray(cut + 1)));
    }
  });

  it('no look-ahead at each decision: a decision stands when every candle after it moves against it', function () {
    const n = candles.length;
    const changed = emptyCandles(n, 5);
    for (const id of strategyIds) {
      const a = strategyDecisions(id, defaults(id), candles, new Int8Array(n));
      const at: number[] = [];
      for (let i = 0; i < n && at.length < 40; i++) if (a[i] === BUY || a[i] === SELL) at.push(i);
      expect(at.length, id).to.equal(40);
      for (const d of at) {
        for (const f of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) changed[f].set(candles[f]);
        // Everything after the decision: the price jumps against it (half for a BUY, half again for a SELL), the volume too.
        const factor = a[d] === BUY ? 0.5 : 1.5;
        for (let i = d + 1; i < n; i++) {
          changed.close[i] = candles.close[i]! * factor;
          changed.high[i] = candles.high[i]! * factor;
          changed.low[i] = candles.low[i]! * factor;
          changed.volume[i] = candles.volume[i]! * 10;
        }
        const b = strategyDecisions(id, defaults(id), changed, new Int8Array(n));
        expect(Array.from(b.subarray(0, d + 1)), `${id}: decisions up to ${d}`).to.deep.equal(Array.from(a.subarray(0, d + 1)));
      }
    }
  });

  it('recursive: a run loaded a week earlier decides the same from the first candle after the warm-up', function () {
    for (const id of strategyIds) {
      const p = defaults(id);
      const warm = warmUpCandles(id, p);
      const s = start + 8 * DAY;
      const late = loadCandles(ticks, 'ethereum', s - warm * FIVE, s + 10 * DAY, 5);
      const early = loadCandles(ticks, 'ethereum', s - warm * FIVE - 7 * DAY, s + 10 * DAY, 5);
      const a = strategyDecisions(id, p, late, new Int8Array(late.length));
      const b = strategyDecisions(id, p, early, new Int8Array(early.length));
      const offset = early.length - late.length;
      expect(offset).to.equal(7 * 288);
      const after = Array.from(a.subarray(warm));
      expect(after, `${id}: the same decisions after the warm-up`).to.deep.equal(Array.from(b.subarray(warm + offset)));
      expect(after.filter((d) => d !== NO_SIGNAL).length, `${id}: it decides`).to.be.greaterThan(10);
    }
    expect(houseStats.recomputed, 'house: near-threshold candles recomputed over their window').to.be.at.least(0);
  });
});
