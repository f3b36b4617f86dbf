/**
 * Walk-forward analysis (issue 18): rolling windows; in each, every parameter set is backtested
 * in-sample through the same engine as a single backtest, the best by the named objective is kept,
 * and that set alone is backtested on the out-of-sample part that follows. The report puts each
 * window's choice, its in-sample figures and its out-of-sample result side by side, with the
 * out-of-sample parts chained into one equity curve, so a strategy fitted to noise shows: its
 * in-sample figures are good and its out-of-sample ones are not.
 *
 * Windows (contracts.ts, walkForwardRequestSchema): out-of-sample length o = T / (W + f / (1 - f)),
 * in-sample i = o f / (1 - f), window k in-sample [s + k o, s + k o + i), out-of-sample after it for
 * o; the out-of-sample parts tile the period's end. Bounds are rounded down to the 5-minute candle.
 *
 * Parameter sets: the strategy's defaults first, then points of a Halton sequence (bases 2, 3, 5, ...
 * one per parameter, index 1, 2, ...) scaled into each parameter's [min, max] and rounded to its step;
 * a set breaking an order rule (fast < slow) or repeating one already drawn is skipped. Deterministic:
 * the same request draws the same sets. Every window tries the same sets.
 *
 * evaluateWindow is pure and self-contained (a window's market, its sets, the rules): the worker
 * threads run it, one window each (workers/src/backtest/).
 */
import { BACKTEST_CANDLE_MINUTES, findStrategy, parameterOrder, type BacktestFigures, type StrategyId, type ValidatedWalkForwardRequest, type WalkForwardObjective, type WalkForwardReport, type WalkForwardWindow } from './contracts';
import { curvesOf, EquitySeries, figuresOf } from './metrics';
import { candlesFor, runBacktestDetail, runBacktestsTogether, type BacktestMarket, type BacktestOptions } from './run-backtest';
import type { EngineRules } from '../trading/engine/paper-engine';
import { warmUpCandles } from './strategies';

const CANDLE_MS = BACKTEST_CANDLE_MINUTES * 60_000;

export interface WindowBounds {
  index: number;
  inSampleStartMs: number;
  inSampleEndMs: number;
  outOfSampleStartMs: number;
  outOfSampleEndMs: number;
}

export function walkForwardWindows(startMs: number, endMs: number, windows: number, inSampleFraction: number): WindowBounds[] {
  const f = inSampleFraction;
  const oos = (endMs - startMs) / (windows + f / (1 - f));
  const is = (oos * f) / (1 - f);
  const floor = (ms: number) => Math.floor(ms / CANDLE_MS) * CANDLE_MS;
  const out: WindowBounds[] = [];
  for (let k = 0; k < windows; k++) {
    const a = startMs + k * oos;
    out.push({
      index: k,
      inSampleStartMs: floor(a),
      inSampleEndMs: floor(a + is),
      outOfSampleStartMs: floor(a + is),
      outOfSampleEndMs: k === windows - 1 ? endMs : floor(a + is + oos),
    });
  }
  return out;
}

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29];

function halton(index: number, base: number): number {
  let f = 1;
  let r = 0;
  for (let i = index; i > 0; i = Math.floor(i / base)) {
    f /= base;
    r += f * (i % base);
  }
  return r;
}

/** Up to `count` parameter sets of the strategy (see the module comment). */
export function parameterSets(strategyId: StrategyId, count: number): Array<Record<string, number>> {
  const strategy = findStrategy(strategyId);
  if (!strategy) throw new RangeError(`no strategy ${strategyId}`);
  const names = Object.keys(strategy.parameters);
  const order = parameterOrder[strategyId] ?? [];
  const sets: Array<Record<string, number>> = [Object.fromEntries(names.map((n) => [n, strategy.parameters[n]!.default]))];
  const seen = new Set(sets.map((s) => JSON.stringify(s)));
  for (let i = 1; sets.length < count && i < count * 50; i++) {
    const set: Record<string, number> = {};
    names.forEach((name, d) => {
      const b = strategy.parameters[name]!;
      const step = b.step ?? (b.max - b.min) / 100;
      const raw = b.min + halton(i, PRIMES[d % PRIMES.length]!) * (b.max - b.min);
      const stepped = Math.min(b.max, b.min + Math.round((raw - b.min) / step) * step);
      set[name] = Number(stepped.toFixed(10));
    });
    if (order.some(([lo, hi]) => !(set[lo]! < set[hi]!))) continue;
    const key = JSON.stringify(set);
    if (seen.has(key)) continue;
    seen.add(key);
    sets.push(set);
  }
  return sets;
}

/** The objective's value (higher is better); null when undefined (no trades, no losses for a profit factor without wins). */
export function objectiveOf(f: BacktestFigures, objective: WalkForwardObjective): number | null {
  switch (objective) {
    case 'sharpeRatio':
      return f.sharpeRatio;
    case 'totalReturn':
      return f.totalReturn;
    case 'profitFactor':
      if (f.performanceMetrics.profitFactor !== null) return f.performanceMetrics.profitFactor;
      return f.performanceMetrics.winningTrades > 0 ? Number.MAX_VALUE : null;
  }
}

/** What one window's job needs (structured-clone safe: it crosses to a worker thread). */
export interface WindowJob {
  strategyId: StrategyId;
  symbol: ValidatedWalkForwardRequest['symbol'];
  initialCapital: number;
  objective: WalkForwardObjective;
  window: WindowBounds;
  sets: Array<Record<string, number>>;
  rules: EngineRules;
  userId?: string;
}

export interface WindowOutcome {
  window: WalkForwardWindow;
  /** The out-of-sample equity samples (times ms, USD from initialCapital) and its closed trades' P&L. */
  oosTime: Float64Array;
  oosEquity: Float64Array;
  oosClosedPnl: number[];
}

/** One window: every set in-sample, the best out of sample. `onSet` reports progress (sets done). */
export function evaluateWindow(job: WindowJob, market: BacktestMarket, onSet?: (done: number) => void): WindowOutcome {
  const w = job.window;
  const rules = job.rules;
  const base = { strategyId: job.strategyId, symbol: job.symbol, initialCapital: job.initialCapital };
  // One load of the candles for every set: the longest warm-up of them.
  const warm = Math.max(...job.sets.map((p) => warmUpCandles(job.strategyId, p)));
  const isCandles = candlesFor({ ...base, parameters: job.sets[0]!, startMs: w.inSampleStartMs, endMs: w.inSampleEndMs }, market.ticks, warm);
  let best = 0;
  let bestValue: number | null = null;
  let bestFigures: BacktestFigures | null = null;
  const options: BacktestOptions & { candles: typeof isCandles } = { rules, candles: isCandles, figuresOnly: true };
  if (job.userId) options.userId = job.userId;
  const configs = job.sets.map((parameters) => ({ ...base, parameters, startMs: w.inSampleStartMs, endMs: w.inSampleEndMs }));
  // The sets run together, a day at a time (runBacktestsTogether): progress is the share of the days done.
  const runs = runBacktestsTogether(configs, market, options, (fraction) => onSet?.(Math.floor(fraction * job.sets.length)));
  runs.forEach((run, i) => {
    const { equityCurve: _e, drawdownCurve: _d, fills: _f, signals: _s, refusedSignals: _r, ...figures } = run.result;
    const value = objectiveOf(figures, job.objective);
    if (bestFigures === null || (value !== null && (bestValue === null || value > bestValue))) {
      best = i;
      bestValue = value;
      bestFigures = figures;
    }
  });
  const parameters = job.sets[best]!;
  const oos = runBacktestDetail({ ...base, parameters, startMs: w.outOfSampleStartMs, endMs: w.outOfSampleEndMs }, market, { rules, ...(job.userId ? { userId: job.userId } : {}) });
  const { equityCurve: _e, drawdownCurve: _d, fills: _f, signals: _s, refusedSignals: _r, ...oosFigures } = oos.result;
  return {
    window: {
      index: w.index,
      inSample: { start: iso(w.inSampleStartMs), end: iso(w.inSampleEndMs), figures: bestFigures!, parameters, objectiveValue: bestValue === Number.MAX_VALUE ? null : bestValue, setsTried: job.sets.length },
      outOfSample: { start: iso(w.outOfSampleStartMs), end: iso(w.outOfSampleEndMs), figures: oosFigures, objectiveValue: finite(objectiveOf(oosFigures, job.objective)) },
    },
    oosTime: oos.equity.time.slice(0, oos.equity.length),
    oosEquity: oos.equity.equity.slice(0, oos.equity.length),
    oosClosedPnl: oos.closedPnl,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
// Number.isFinite(null) is false: null stays null.
const finite = (x: number | null) => (!Number.isFinite(x) || x === Number.MAX_VALUE ? null : x);

/** The windows' jobs of a request. */
export function windowJobs(request: ValidatedWalkForwardRequest, rules: EngineRules, userId?: string): WindowJob[] {
  const sets = parameterSets(request.strategyId, request.parameterSets);
  return walkForwardWindows(request.startMs, request.endMs, request.windows, request.inSampleFraction).map((window) => ({
    strategyId: request.strategyId,
    symbol: request.symbol,
    initialCapital: request.initialCapital,
    objective: request.objective,
    window,
    sets,
    rules,
    ...(userId ? { userId } : {}),
  }));
}

function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** The report from the windows' outcomes (in window order). */
export function walkForwardReport(request: ValidatedWalkForwardRequest, outcomes: readonly WindowOutcome[]): WalkForwardReport {
  const sorted = [...outcomes].sort((a, b) => a.window.index - b.window.index);
  // The out-of-sample parts chained: each scaled to start where the previous ended.
  const stitched = new EquitySeries();
  const pnl: number[] = [];
  let level = request.initialCapital;
  for (const o of sorted) {
    const scale = level / request.initialCapital;
    for (let i = 0; i < o.oosTime.length; i++) stitched.push(o.oosTime[i]!, o.oosEquity[i]! * scale);
    for (const p of o.oosClosedPnl) pnl.push(p * scale);
    if (o.oosEquity.length > 0) level = o.oosEquity[o.oosEquity.length - 1]! * scale;
  }
  const outOfSampleSummary = figuresOf(stitched, pnl, request.initialCapital, level);
  const ins = sorted.map((o) => o.window.inSample.figures);
  const avg = (pick: (f: BacktestFigures) => number) => Number(mean(ins.map(pick)).toFixed(8));
  const sharpes = ins.map((f) => f.sharpeRatio).filter((x): x is number => x !== null);
  const pfs = ins.map((f) => f.performanceMetrics.profitFactor).filter((x): x is number => x !== null);
  const inSampleSummary: BacktestFigures = {
    totalReturn: avg((f) => f.totalReturn),
    winRate: avg((f) => f.winRate),
    maxDrawdown: avg((f) => f.maxDrawdown),
    totalTrades: ins.reduce((a, f) => a + f.totalTrades, 0),
    finalBalance: Math.round(request.initialCapital * (1 + mean(ins.map((f) => f.totalReturn))) * 100) / 100,
    sharpeRatio: sharpes.length ? Number(mean(sharpes).toFixed(8)) : null,
    performanceMetrics: {
      winningTrades: ins.reduce((a, f) => a + f.performanceMetrics.winningTrades, 0),
      losingTrades: ins.reduce((a, f) => a + f.performanceMetrics.losingTrades, 0),
      averageWin: Math.round(mean(ins.map((f) => f.performanceMetrics.averageWin)) * 100) / 100,
      averageLoss: Math.round(mean(ins.map((f) => f.performanceMetrics.averageLoss)) * 100) / 100,
      profitFactor: pfs.length ? Number(mean(pfs).toFixed(8)) : null,
      volatility: avg((f) => f.performanceMetrics.volatility),
    },
  };
  const isObj = sorted.map((o) => o.window.inSample.objectiveValue).filter((x): x is number => x !== null);
  const oosObj = sorted.map((o) => o.window.outOfSample.objectiveValue).filter((x): x is number => x !== null);
  const isMean = mean(isObj);
  const efficiency = isObj.length && oosObj.length && isMean !== 0 ? Number((mean(oosObj) / isMean).toFixed(8)) : null;
  return {
    strategyId: request.strategyId,
    symbol: request.symbol,
    objective: request.objective,
    windows: sorted.map((o) => o.window),
    stitchedEquity: curvesOf(stitched, request.initialCapital).equityCurve,
    inSampleSummary,
    outOfSampleSummary,
    efficiency,
  };
}

/** The whole walk-forward in this thread (the worker pool runs the windows in parallel instead). */
export function runWalkForward(request: ValidatedWalkForwardRequest, market: BacktestMarket, rules: EngineRules, onProgress?: (fraction: number) => void, userId?: string): WalkForwardReport {
  const jobs = windowJobs(request, rules, userId);
  const total = jobs.reduce((a, j) => a + j.sets.length, 0);
  let done = 0;
  const outcomes = jobs.map((job) => {
    const o = evaluateWindow(job, market, (n) => onProgress?.((done + n) / total));
    done += job.sets.length;
    return o;
  });
  return walkForwardReport(request, outcomes);
}
