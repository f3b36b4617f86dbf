/**
 * Backtest bench: `npm run bench:backtest` (issue 18).
 *
 * 1. Signal generation: the same 1,000,000 one-minute ETH candles of the simulated market (typed
 *    arrays, read from the path once, untimed), candles/s for each strategy's decisions
 *    (strategyDecisions: one pass, indicators updated in place) against the floor, a bare loop over
 *    the same closes in the same run (it reads each close and writes a decision, nothing else).
 *    Goal: at least 5 million candles/s for the rule strategies. house-signals is reported beside them
 *    (it computes the live engine's six indicators vectorised, then votes).
 * 2. The full engine: runBacktest per strategy over BACKTEST_BENCH_DAYS (default 90) of 5-minute
 *    candles: the paper engine's fills, exits, risk rules and the figures; cold (a fresh market: the
 *    path is computed as it is read) and warm (the same market again: its caches hold the path).
 * 3. Walk-forward: a year of 5-minute candles, 12 windows, BACKTEST_BENCH_WF_SETS (default 100)
 *    parameter sets each, on a pool of two worker threads (both cores). Goal: under 10 s.
 *
 * Method: an untimed warm-up, then BACKTEST_BENCH_REPS (default 7) samples per side, alternating
 * sides, a full GC before each (--expose-gc); medians. Nothing is asserted.
 */
import { performance } from 'node:perf_hooks';
import { findStrategy, strategyIds, validateWalkForwardRequest, type StrategyId } from '@papertrade/domain/backtest/contracts';
import { loadCandles } from '@papertrade/domain/backtest/candles';
import { simulationMarket } from '@papertrade/domain/backtest/market';
import { runBacktestDetail } from '@papertrade/domain/backtest/run-backtest';
import { strategyDecisions } from '@papertrade/domain/backtest/strategies';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { DEFAULT_RISK_PROFILE } from '@papertrade/domain/trading/contracts';
import { WalkForwardPool } from '../workers/src/backtest/walk-forward-pool';
import { fmtCount, fmtMs, fmtRate, loadAverage, median, perSecond, table } from './support/measure';

const CANDLES = Number(process.env.BACKTEST_BENCH_CANDLES ?? 1_000_000);
const REPS = Number(process.env.BACKTEST_BENCH_REPS ?? 7);
const DAYS = Number(process.env.BACKTEST_BENCH_DAYS ?? 90);
const WF_SETS = Number(process.env.BACKTEST_BENCH_WF_SETS ?? 100);
const WF_WINDOWS = Number(process.env.BACKTEST_BENCH_WF_WINDOWS ?? 12);
const SKIP_WF = process.env.BACKTEST_BENCH_SKIP_WF === '1';
const KEY = Uint32Array.from([2026, 11, 26, 18, 1, 2, 3, 4]);
const DAY = 86_400_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const defaults = (id: StrategyId) => Object.fromEntries(Object.entries(findStrategy(id)!.parameters).map(([k, v]) => [k, v.default]));

function time(fn: () => void): number {
  gc();
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  console.log(`backtest bench: ${fmtCount(CANDLES)} one-minute candles, ${REPS} reps; load ${loadAverage()}`);
  const sim = new MarketSimulation(KEY);
  const start = Date.UTC(2023, 0, 1);
  const t0 = performance.now();
  const candles = loadCandles(sim.path, 'ethereum', start, start + CANDLES * 60_000, 1);
  console.log(`read ${fmtCount(candles.length)} minute candles from the path in ${fmtMs(performance.now() - t0)} (untimed below)\n`);

  // 1. Signal generation against the floor.
  const out = new Int8Array(candles.length);
  const n = candles.length;
  const close = candles.close;
  let sink = 0;
  const floor = () => {
    let previous = close[0]!;
    for (let i = 1; i < n; i++) {
      const c = close[i]!;
      out[i] = c > previous ? 1 : 0;
      previous = c;
    }
    sink += out[n - 1]!;
  };
  const sides: Array<[string, () => void]> = [['bare loop (floor)', floor], ...strategyIds.map((id) => [id, () => void strategyDecisions(id, defaults(id), candles, out)] as [string, () => void])];
  for (const [, fn] of sides) fn();
  const samples = new Map<string, number[]>(sides.map(([name]) => [name, []]));
  for (let r = 0; r < REPS; r++) for (const [name, fn] of r % 2 === 0 ? sides : [...sides].reverse()) samples.get(name)!.push(time(fn));
  const floorMs = median(samples.get('bare loop (floor)')!);
  console.log(
    table(
      ['decisions over 1m candles', 'median', 'candles/s', 'x floor time'],
      sides.map(([name]) => {
        const ms = median(samples.get(name)!);
        return [name, fmtMs(ms), fmtRate(perSecond(n, ms)), (ms / floorMs).toFixed(1)];
      }),
    ),
  );

  // 2. The full engine.
  console.log(`\nfull engine: runBacktest over ${DAYS} days of 5-minute candles (${fmtCount(DAYS * 288)} candles), ETH, the default risk profile`);
  const rows: string[][] = [];
  const end = Date.UTC(2025, 0, 1);
  for (const id of strategyIds) {
    const market = simulationMarket(new MarketSimulation(KEY));
    const config = { strategyId: id, symbol: 'ETH' as const, startMs: end - DAYS * DAY, endMs: end, initialCapital: 10_000, parameters: defaults(id) };
    let run = runBacktestDetail(config, market, { rules: { profile: DEFAULT_RISK_PROFILE } });
    const cold = time(() => void (run = runBacktestDetail(config, simulationMarket(new MarketSimulation(KEY)), { rules: { profile: DEFAULT_RISK_PROFILE } })));
    const warm = median([0, 1, 2].map(() => time(() => void (run = runBacktestDetail(config, market, { rules: { profile: DEFAULT_RISK_PROFILE } })))));
    rows.push([id, fmtMs(cold), fmtMs(warm), fmtRate(perSecond(DAYS * 288, warm)), fmtCount(run.result.signals), fmtCount(run.result.fills), (run.result.totalReturn * 100).toFixed(2) + '%']);
  }
  console.log(table(['strategy', 'cold', 'warm', '5m candles/s warm', 'signals', 'fills', 'return'], rows));

  // 3. Walk-forward on two threads.
  if (SKIP_WF) return;
  const wfEnd = Date.UTC(2025, 0, 1);
  const request = validateWalkForwardRequest(
    { strategyId: 'macd-momentum', symbol: 'ETH', startDate: new Date(wfEnd - 365 * DAY).toISOString(), endDate: new Date(wfEnd).toISOString(), windows: WF_WINDOWS, parameterSets: WF_SETS, objective: 'sharpeRatio' },
    Date.UTC(2026, 0, 1),
  );
  const pool = new WalkForwardPool(2);
  let last = 0;
  const w0 = performance.now();
  const report = await pool.run(request, { profile: DEFAULT_RISK_PROFILE }, KEY, (f) => {
    if (f - last >= 0.1) {
      last = f;
      console.log(`  walk-forward ${(f * 100).toFixed(0)}% after ${fmtMs(performance.now() - w0)}`);
    }
  });
  const wfMs = performance.now() - w0;
  await pool.close();
  console.log(`\nwalk-forward: macd-momentum, a year of 5-minute candles, ${WF_WINDOWS} windows x ${WF_SETS} parameter sets (${fmtCount(WF_WINDOWS * WF_SETS)} in-sample runs + ${WF_WINDOWS} out of sample), 2 threads: ${fmtMs(wfMs)}`);
  console.log(`  in-sample mean return ${(report.inSampleSummary.totalReturn * 100).toFixed(2)}%, out-of-sample stitched return ${(report.outOfSampleSummary.totalReturn * 100).toFixed(2)}%, efficiency ${report.efficiency}`);
  if (sink === 42.5) console.log('');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
