/**
 * Walk-forward profile helper (issue 18's speed goal): one window of the bench's walk-forward
 * (macd-momentum, a year, 12 windows) in this thread, BACKTEST_PROFILE_SETS sets (default 20), once
 * cold (the market's caches filled) and once warm, timed; run under `node --cpu-prof` for a profile:
 *   npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/backtest-wf-profile.ts
 * or BACKTEST_PROFILE_WARM=path.cpuprofile: a profile of the warm run only (BACKTEST_PROFILE_RUN=cold: the cold one;
 * BACKTEST_PROFILE_INTERVAL_US=100: ten times V8's default sampling rate).
 * BACKTEST_PROFILE_REPORT=path writes the report of a small walk-forward (3 windows, 10 sets, two
 * months) as JSON, to compare the numbers before and after a change.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { validateWalkForwardRequest } from '@papertrade/domain/backtest/contracts';
import { simulationMarket } from '@papertrade/domain/backtest/market';
import { evaluateWindow, runWalkForward, windowJobs } from '@papertrade/domain/backtest/walk-forward';
import { MarketSimulation } from '@papertrade/domain/market/simulation';
import { DEFAULT_RISK_PROFILE } from '@papertrade/domain/trading/contracts';

const KEY = Uint32Array.from([2026, 11, 26, 18, 1, 2, 3, 4]);
const DAY = 86_400_000;
const SETS = Number(process.env.BACKTEST_PROFILE_SETS ?? 20);
const WINDOW = Number(process.env.BACKTEST_PROFILE_WINDOW ?? 0);
const rules = { profile: DEFAULT_RISK_PROFILE };
const end = Date.UTC(2025, 0, 1);
const post = (session: Session, method: string) => new Promise<unknown>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
const postWith = (session: Session, method: string, params: object) => new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

const reportPath = process.env.BACKTEST_PROFILE_REPORT;
if (reportPath) {
  for (const strategyId of ['macd-momentum', 'ma-crossover', 'rsi-mean-reversion', 'house-signals'] as const) {
    const request = validateWalkForwardRequest({ strategyId, symbol: 'ETH', startDate: new Date(end - 60 * DAY).toISOString(), endDate: new Date(end).toISOString(), windows: 3, parameterSets: 10, objective: 'sharpeRatio' }, Date.UTC(2026, 0, 1));
    const t0 = performance.now();
    const report = runWalkForward(request, simulationMarket(new MarketSimulation(KEY)), rules);
    writeFileSync(`${reportPath}.${strategyId}.json`, JSON.stringify(report, null, 1));
    console.log(`${strategyId}: report written in ${(performance.now() - t0).toFixed(0)} ms`);
  }
} else {
  const request = validateWalkForwardRequest({ strategyId: 'macd-momentum', symbol: 'ETH', startDate: new Date(end - 365 * DAY).toISOString(), endDate: new Date(end).toISOString(), windows: 12, parameterSets: SETS, objective: 'sharpeRatio' }, Date.UTC(2026, 0, 1));
  const job = windowJobs(request, rules)[WINDOW]!;
  const market = simulationMarket(new MarketSimulation(KEY));
  const profilePath = process.env.BACKTEST_PROFILE_WARM;
  for (const label of ['cold', 'warm']) {
    const session = profilePath && label === (process.env.BACKTEST_PROFILE_RUN ?? 'warm') ? new Session() : null;
    if (session) {
      session.connect();
      await post(session, 'Profiler.enable');
      // BACKTEST_PROFILE_INTERVAL_US: the sampling interval (V8's default is 1000 us: a warm window gives about a thousand samples).
      if (process.env.BACKTEST_PROFILE_INTERVAL_US) await postWith(session, 'Profiler.setSamplingInterval', { interval: Number(process.env.BACKTEST_PROFILE_INTERVAL_US) });
      await post(session, 'Profiler.start');
    }
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const outcome = evaluateWindow(job, market);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    if (session) {
      const { profile } = (await post(session, 'Profiler.stop')) as { profile: unknown };
      writeFileSync(profilePath!, JSON.stringify(profile));
      session.disconnect();
    }
    console.log(`${label}: ${job.sets.length} sets in ${ms.toFixed(0)} ms (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms) (${(ms / job.sets.length).toFixed(1)} ms a set); best ${JSON.stringify(outcome.window.inSample.parameters)} objective ${outcome.window.inSample.objectiveValue}`);
  }
}
