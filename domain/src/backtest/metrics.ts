/**
 * The result's figures from the equity samples and the closed trades, by the conventions of
 * contracts.ts (its module comment): fractions; Sharpe and volatility from daily returns annualised
 * with sqrt(365), risk-free 0, sample standard deviation; drawdown a positive fraction of the peak;
 * profit factor gross profit / gross loss, null without a loss; winRate over closed trades.
 */
import { MAX_CURVE_POINTS, type BacktestFigures } from './contracts';

const DAY_MS = 86_400_000;
export const ANNUALISATION_DAYS = 365;

/** The equity samples of a run (USD), in time order, in growable typed arrays. */
export class EquitySeries {
  length = 0;
  time: Float64Array;
  equity: Float64Array;
  constructor(capacity = 1024) {
    this.time = new Float64Array(capacity);
    this.equity = new Float64Array(capacity);
  }
  push(timeMs: number, equity: number): void {
    if (this.length === this.time.length) {
      const t = new Float64Array(this.time.length * 2);
      t.set(this.time);
      const e = new Float64Array(this.time.length * 2);
      e.set(this.equity);
      this.time = t;
      this.equity = e;
    }
    this.time[this.length] = timeMs;
    this.equity[this.length] = equity;
    this.length++;
  }
}

/**
 * What the figures read of equity samples pushed in time order, kept as they come instead of the
 * samples (a walk-forward's in-sample sets keep their figures only: a hundred sets' samples were 40 MB
 * a window, written and read again): the same numbers, by the same operations in the same order, as
 * maxDrawdownOf and dailyReturns over an EquitySeries of those samples.
 */
export class RunningEquity {
  length = 0;
  private peak: number;
  private worst = 0;
  private day = Number.NaN;
  private dayLast = 0;
  private previous: number;
  private readonly returns: number[] = [];

  constructor(readonly initial: number) {
    this.peak = initial;
    this.previous = initial;
  }

  push(timeMs: number, equity: number): void {
    this.peak = Math.max(this.peak, equity);
    const dd = this.peak > 0 ? (this.peak - equity) / this.peak : 0;
    this.worst = Math.max(this.worst, dd);
    const day = Math.floor(timeMs / DAY_MS);
    // A sample of another day: the day before ended at its last sample.
    if (this.length > 0 && day !== this.day) this.endDay();
    this.day = day;
    this.dayLast = equity;
    this.length++;
  }

  private endDay(): void {
    this.returns.push(this.previous > 0 ? this.dayLast / this.previous - 1 : 0);
    this.previous = this.dayLast;
  }

  /** maxDrawdownOf of the samples. */
  maxDrawdown(): number {
    return this.worst;
  }

  /** dailyReturns of the samples (the day in hand ended by its last sample so far). */
  dailyReturns(): number[] {
    if (this.length === 0) return [];
    const out = this.returns.slice();
    out.push(this.previous > 0 ? this.dayLast / this.previous - 1 : 0);
    return out;
  }
}

/** The largest (peak - equity) / peak, a fraction >= 0. */
export function maxDrawdownOf(s: EquitySeries, initial: number): number {
  let peak = initial;
  let worst = 0;
  for (let i = 0; i < s.length; i++) {
    const e = s.equity[i]!;
    peak = Math.max(peak, e);
    const dd = peak > 0 ? (peak - e) / peak : 0;
    worst = Math.max(worst, dd);
  }
  return worst;
}

/** The returns of the equity at each UTC day's last sample, the first against `initial`. */
export function dailyReturns(s: EquitySeries, initial: number): number[] {
  const out: number[] = [];
  let previous = initial;
  for (let i = 0; i < s.length; i++) {
    const day = Math.floor(s.time[i]! / DAY_MS);
    const last = i === s.length - 1 || Math.floor(s.time[i + 1]! / DAY_MS) !== day;
    if (!last) continue;
    const e = s.equity[i]!;
    out.push(previous > 0 ? e / previous - 1 : 0);
    previous = e;
  }
  return out;
}

/** Mean and sample standard deviation (n - 1). */
function meanStd(xs: readonly number[]): { mean: number; std: number } {
  const n = xs.length;
  if (n === 0) return { mean: 0, std: 0 };
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  if (n < 2) return { mean, std: 0 };
  let sq = 0;
  for (const x of xs) sq += (x - mean) * (x - mean);
  return { mean, std: Math.sqrt(sq / (n - 1)) };
}

/** Sharpe (null with fewer than 2 daily returns or none varying) and annualised volatility. */
export function sharpeAndVolatility(returns: readonly number[]): { sharpeRatio: number | null; volatility: number } {
  const { mean, std } = meanStd(returns);
  const annual = Math.sqrt(ANNUALISATION_DAYS);
  return { sharpeRatio: returns.length >= 2 && std > 0 ? (mean / std) * annual : null, volatility: std * annual };
}

const cents = (usd: number) => Math.round(usd * 100) / 100;
const fraction = (x: number) => Math.round(x * 1e8) / 1e8;

/** The figures of a run: its equity samples (or their running figures from `initial`), its closed trades' P&L (USD), its start capital and final balance. */
export function figuresOf(equity: EquitySeries | RunningEquity, closedPnl: readonly number[], initial: number, finalBalance: number): BacktestFigures {
  if (equity instanceof RunningEquity && equity.initial !== initial) throw new RangeError(`equity counted from ${equity.initial}, figures asked from ${initial}`);
  let wins = 0;
  let losses = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  for (const pnl of closedPnl) {
    if (pnl > 0) {
      wins++;
      grossProfit += pnl;
    } else {
      losses++;
      grossLoss -= pnl;
    }
  }
  const { drawdown, returns } = equity instanceof RunningEquity ? { drawdown: equity.maxDrawdown(), returns: equity.dailyReturns() } : { drawdown: maxDrawdownOf(equity, initial), returns: dailyReturns(equity, initial) };
  const { sharpeRatio, volatility } = sharpeAndVolatility(returns);
  const total = wins + losses;
  return {
    totalReturn: fraction(finalBalance / initial - 1),
    winRate: total === 0 ? 0 : fraction(wins / total),
    maxDrawdown: fraction(drawdown),
    totalTrades: total,
    finalBalance: cents(finalBalance),
    sharpeRatio: sharpeRatio === null ? null : fraction(sharpeRatio),
    performanceMetrics: {
      winningTrades: wins,
      losingTrades: losses,
      averageWin: wins === 0 ? 0 : cents(grossProfit / wins),
      averageLoss: losses === 0 ? 0 : cents(-grossLoss / losses),
      profitFactor: grossLoss === 0 ? null : fraction(grossProfit / grossLoss),
      volatility: fraction(volatility),
    },
  };
}

/**
 * The curves, at most `points` each: the span cut into equal time buckets; the equity curve keeps
 * each bucket's last sample, the drawdown curve each bucket's deepest (so the maximum shows).
 */
export function curvesOf(s: EquitySeries, initial: number, points = MAX_CURVE_POINTS): { equityCurve: Array<{ time: string; equity: number }>; drawdownCurve: Array<{ time: string; drawdown: number }> } {
  const equityCurve: Array<{ time: string; equity: number }> = [];
  const drawdownCurve: Array<{ time: string; drawdown: number }> = [];
  if (s.length === 0) return { equityCurve, drawdownCurve };
  const t0 = s.time[0]!;
  const span = Math.max(1, s.time[s.length - 1]! - t0);
  const buckets = Math.min(points, s.length);
  let peak = initial;
  let bucket = -1;
  let deepest = -1;
  let deepestAt = 0;
  for (let i = 0; i < s.length; i++) {
    const e = s.equity[i]!;
    peak = Math.max(peak, e);
    const dd = peak > 0 ? (peak - e) / peak : 0;
    const b = Math.min(buckets - 1, Math.floor(((s.time[i]! - t0) / span) * buckets));
    if (b !== bucket) {
      if (bucket >= 0) {
        equityCurve.push({ time: new Date(s.time[i - 1]!).toISOString(), equity: cents(s.equity[i - 1]!) });
        drawdownCurve.push({ time: new Date(deepestAt).toISOString(), drawdown: fraction(deepest) });
      }
      bucket = b;
      deepest = -1;
    }
    if (dd > deepest) {
      deepest = dd;
      deepestAt = s.time[i]!;
    }
  }
  equityCurve.push({ time: new Date(s.time[s.length - 1]!).toISOString(), equity: cents(s.equity[s.length - 1]!) });
  drawdownCurve.push({ time: new Date(deepestAt).toISOString(), drawdown: fraction(deepest) });
  return { equityCurve, drawdownCurve };
}
