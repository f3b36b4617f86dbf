/**
 * The figures on a strategy's card and its performance (issue 19), measured from the strategy's own
 * round trips (strategy-signals.ts: paper since activation) or its latest backtest. Conventions:
 * - winRate: percent of round trips with a positive return after fees;
 * - accuracy: percent of round trips whose direction was right (a positive return before fees), so a
 *   strategy that reads the market but loses its edge to fees shows it;
 * - profitFactor: the sum of winning returns over the sum of losing ones (null without a loss);
 * - sharpeRatio: mean over standard deviation of the per-trade net returns, not annualised;
 * - maxDrawdown: the deepest fall of the compounded equity from its peak, percent (positive);
 * - totalReturn: the compounded return of every round trip, percent.
 * Below MIN_TRADES_FOR_FIGURES round trips the ratios are null ("not enough trades"): a win rate of
 * 3 trades out of 4 says nothing.
 */
import type { StrategyRoundTrip } from './strategy-signals';

export const MIN_TRADES_FOR_FIGURES = 20;

export interface StrategyFigures {
  totalTrades: number;
  totalReturn: number;
  accuracy: number | null;
  winRate: number | null;
  profitFactor: number | null;
  sharpeRatio: number | null;
  maxDrawdown: number | null;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

export function cumulativeReturns(trades: readonly Pick<StrategyRoundTrip, 'netReturn' | 'exitTime'>[]): Array<{ date: string; cumulativeReturn: number }> {
  let equity = 1;
  return trades.map((t) => {
    equity *= 1 + t.netReturn / 100;
    return { date: t.exitTime, cumulativeReturn: r2((equity - 1) * 100) };
  });
}

export function strategyFigures(trades: readonly Pick<StrategyRoundTrip, 'netReturn' | 'grossReturn'>[]): StrategyFigures {
  const n = trades.length;
  let equity = 1;
  let peak = 1;
  let deepest = 0;
  for (const t of trades) {
    equity *= 1 + t.netReturn / 100;
    peak = Math.max(peak, equity);
    deepest = Math.max(deepest, (peak - equity) / peak);
  }
  const totalReturn = r2((equity - 1) * 100);
  if (n < MIN_TRADES_FOR_FIGURES) return { totalTrades: n, totalReturn, accuracy: null, winRate: null, profitFactor: null, sharpeRatio: null, maxDrawdown: null };
  const returns = trades.map((t) => t.netReturn);
  const wins = returns.filter((r) => r > 0);
  const losses = returns.filter((r) => r < 0);
  const lost = -losses.reduce((a, b) => a + b, 0);
  const mean = returns.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1));
  return {
    totalTrades: n,
    totalReturn,
    accuracy: r2((trades.filter((t) => t.grossReturn > 0).length / n) * 100),
    winRate: r2((wins.length / n) * 100),
    profitFactor: lost > 0 ? r2(wins.reduce((a, b) => a + b, 0) / lost) : null,
    sharpeRatio: sd > 0 ? r2(mean / sd) : null,
    maxDrawdown: r2(deepest * 100),
  };
}
