/**
 * The `backtest` and `walk-forward` long jobs (issue 18), run by the job runner (job-runner.ts) in
 * whichever workers process claims them.
 *
 * A run reads its settings from `backtest-{id}` (the request's event, not the job's params, is the
 * source of truth), with the owner's one risk profile as it was when the run was asked (the rules the
 * paper bot trades under), runs the engine (domain/src/backtest, through `BacktestEngine`: in this process or
 * on the worker-thread pool), then records the result on `backtest-{id}`: the trades in pages
 * (BacktestTradesRecorded, TRADE_PAGES_PER_APPEND pages an append), the trades beside the owner's
 * paper trades of the period (compare-paper.ts: the portfolio and risk streams read here, a process
 * manager's right; the period is in the past, so the paper side is settled) and BacktestCompleted, or
 * WalkForwardCompleted with the report; a failure records BacktestFailed with the reason. Either way
 * the user's slot (`backtester-{userId}`) is released, so they may ask for the next one.
 *
 * Safe to run again (a takeover after a worker died): the engine is deterministic (the same path,
 * settings and profile give the same trades), pages already recorded are skipped and a run ends once
 * (backtest.decider.ts). A run whose claim was lost records nothing: the new holder does. The profile
 * is the request's, so a run again after a takeover trades under the same rules even if the user
 * changed them meanwhile.
 */
import { z } from 'zod';
import { backtestStreamId, backtesterStreamId, BACKTEST_JOB_KIND, TRADE_PAGE_SIZE, TRADE_PAGES_PER_APPEND, WALK_FORWARD_JOB_KIND, type BacktestConfig, type WalkForwardConfig } from '@papertrade/domain/backtest/backtest';
import { backtestDecider, backtestSlotDecider, type BacktestCommand } from '@papertrade/domain/backtest/backtest.decider';
import type { BacktestRun, BacktestTrade, WalkForwardReport } from '@papertrade/domain/backtest/contracts';
import type { JobInfo, JobResult } from '@papertrade/domain/jobs/job';
import { comparePaper, type PaperRefusal } from '@papertrade/domain/backtest/compare-paper';
import type { RiskProfile } from '@papertrade/domain/trading/contracts';
import type { RecordedPeak } from '@papertrade/domain/trading/engine/paper-engine';
import { portfolioStreamId, upcastPortfolioEvent, type PortfolioEvent } from '@papertrade/domain/trading/portfolio';
import { riskStreamId, upcastRiskEvent, type BotSignalRefused } from '@papertrade/domain/trading/risk';
import { isPortfolioEvent } from '@papertrade/domain/trading/trading-view';
import { MICROS_PER_USD } from '@papertrade/domain/trading/money';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import type { Logger } from '@papertrade/platform/config/logger';
import type { JobContext, JobKind } from './job-runner';

export const BACKTESTER_ACTOR = 'backtester';

/** What a job needs of the engine: a backtest and a walk-forward, with progress (0..1) and a way to stop. */
export interface BacktestEngine {
  backtest(input: { userId: string; config: BacktestConfig; profile: RiskProfile; peaks?: readonly RecordedPeak[] }, progress: (fraction: number) => void, signal: AbortSignal): Promise<BacktestRun>;
  walkForward(input: { userId: string; config: WalkForwardConfig; profile: RiskProfile }, progress: (fraction: number) => void, signal: AbortSignal): Promise<WalkForwardReport>;
}

export const backtestJobParamsSchema = z.object({ backtestId: z.string().min(1).max(100), userId: z.string().min(1).max(100), mode: z.enum(['backtest', 'walk-forward']) });

export interface BacktestJobDeps {
  handler: CommandHandler;
  /** The owner's paper history (portfolio and risk streams), for the comparison and the recorded peaks. */
  events: Pick<EventStore, 'readStream'>;
  engine: BacktestEngine;
  logger: Logger;
}

/** The trades in pages of TRADE_PAGE_SIZE, numbered from 0. */
export function tradePages(trades: readonly BacktestTrade[]): Array<{ page: number; trades: BacktestTrade[] }> {
  const pages = [];
  for (let i = 0; i * TRADE_PAGE_SIZE < trades.length; i++) pages.push({ page: i, trades: trades.slice(i * TRADE_PAGE_SIZE, (i + 1) * TRADE_PAGE_SIZE) });
  return pages;
}

/**
 * The owner's paper side of a period: portfolio events, the bot's refusals in [startMs, endMs), and the
 * risk monitor's peaks in it for the drawdown rule to replay. The peaks are the paper account's values,
 * so they are handed to the backtest only when it replays that account: its capital is the portfolio's
 * starting cash (its last opening or reset); otherwise the engine marks its own peaks.
 */
export async function paperHistory(events: BacktestJobDeps['events'], userId: string, startMs: number, endMs: number, initialCapital: number) {
  const within = (iso: string) => {
    const ms = Date.parse(iso);
    return ms >= startMs && ms < endMs;
  };
  const portfolio = (await events.readStream(portfolioStreamId(userId)))
    .map((e) => ({ type: e.type, data: e.data, schemaVersion: Number(e.metadata?.schemaVersion ?? 1) }))
    .filter((e) => isPortfolioEvent(e))
    .map((e) => upcastPortfolioEvent(e) as PortfolioEvent);
  const refusals: PaperRefusal[] = (await events.readStream(riskStreamId(userId)))
    .filter((e) => e.type === 'BotSignalRefused')
    .map((e) => upcastRiskEvent({ type: e.type, data: e.data, schemaVersion: Number(e.metadata?.schemaVersion ?? 1) }) as BotSignalRefused)
    .filter((e) => within(e.data.refusedAt))
    // An arbitrage pair's refusal has no counterpart in a backtest of one coin's BUY and SELL signals.
    .flatMap(({ data: { signalId, symbol, signalType, candleTime, decision, refusedAt } }) => (signalType === 'ARBITRAGE' ? [] : [{ signalId, symbol, signalType, candleTime, decision, refusedAt }]));
  const start = portfolio.filter((e) => e.type === 'PortfolioOpened' || e.type === 'PortfolioReset').at(-1);
  const startingCashMicros = start ? (start.data as { startingCashMicros: number }).startingCashMicros : null;
  const sameAccount = startingCashMicros !== null && startingCashMicros === Math.round(initialCapital * MICROS_PER_USD);
  const peaks: RecordedPeak[] = sameAccount ? portfolio.flatMap((e) => (e.type === 'PortfolioPeakRecorded' && within(e.data.recordedAt) ? [{ atMs: Date.parse(e.data.recordedAt), valueMicros: e.data.valueMicros }] : [])) : [];
  return { portfolio, refusals, peaks };
}

export function backtestJobs(deps: BacktestJobDeps): JobKind[] {
  const { handler } = deps;
  const onRun = (backtestId: string, jobId: string, command: BacktestCommand) => handler.handle(backtestDecider, backtestStreamId(backtestId), command, { actor: BACKTESTER_ACTOR, correlationId: jobId });
  const release = (userId: string, backtestId: string, jobId: string) =>
    handler.handle(backtestSlotDecider, backtesterStreamId(userId), { type: 'ReleaseBacktestSlot', data: { userId, backtestId }, metadata: { now: handler.now() } }, { actor: BACKTESTER_ACTOR, correlationId: jobId });

  async function fail(params: z.infer<typeof backtestJobParamsSchema>, jobId: string, reason: string): Promise<void> {
    await onRun(params.backtestId, jobId, { type: 'FailBacktest', data: { backtestId: params.backtestId, jobId, reason: reason.slice(0, 300) }, metadata: { now: handler.now() } });
    await release(params.userId, params.backtestId, jobId);
  }

  async function run(job: JobInfo, context: JobContext): Promise<JobResult> {
    const parsed = backtestJobParamsSchema.safeParse(job.params);
    if (!parsed.success) throw new Error(`The backtest job is not valid: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    const p = parsed.data;
    const loaded = (await handler.load(backtestDecider, backtestStreamId(p.backtestId))).state;
    if (loaded.status === 'NONE') throw new Error(`Backtest ${p.backtestId} was never requested`);
    if (loaded.request.userId !== p.userId) throw new Error(`Backtest ${p.backtestId} is not this user's`);
    if (loaded.status !== 'REQUESTED') {
      // Ended already (a run before a takeover got that far): only the slot may be left to release.
      await release(p.userId, p.backtestId, job.jobId);
      return { backtestId: p.backtestId, status: loaded.status };
    }
    const request = loaded.request;
    try {
      const profile = request.profile;
      const progress = (f: number) => context.progress(f, request.mode === 'backtest' ? 'Replaying the market' : 'Optimising window by window');
      context.progress(0, 'Started');
      if (request.mode === 'backtest') {
        const startMs = Date.parse(request.config.startDate);
        const endMs = Date.parse(request.config.endDate);
        const paper = await paperHistory(deps.events, p.userId, startMs, endMs, request.config.initialCapital);
        const { result, trades } = await deps.engine.backtest({ userId: p.userId, config: request.config, profile, peaks: paper.peaks }, progress, context.signal);
        if (context.signal.aborted) throw context.signal.reason as Error;
        const pages = tradePages(trades);
        for (let i = 0; i < pages.length; i += TRADE_PAGES_PER_APPEND) {
          await onRun(p.backtestId, job.jobId, { type: 'RecordBacktestTrades', data: { backtestId: p.backtestId, pages: pages.slice(i, i + TRADE_PAGES_PER_APPEND) }, metadata: { now: handler.now() } });
          if (context.signal.aborted) throw context.signal.reason as Error;
        }
        const comparison = comparePaper({ backtestTrades: trades, paperEvents: paper.portfolio, refusals: paper.refusals, startMs, endMs, symbol: request.config.symbol, trailing: profile.stopLossType === 'trailing' });
        await onRun(p.backtestId, job.jobId, { type: 'CompleteBacktest', data: { backtestId: p.backtestId, jobId: job.jobId, result, tradeCount: trades.length, comparison }, metadata: { now: handler.now() } });
        await release(p.userId, p.backtestId, job.jobId);
        deps.logger.info('backtest completed', { jobId: job.jobId, backtestId: p.backtestId, strategyId: request.config.strategyId, symbol: request.config.symbol, trades: trades.length, totalReturn: result.totalReturn });
        return { backtestId: p.backtestId, totalTrades: result.totalTrades, fills: trades.length };
      }
      const report = await deps.engine.walkForward({ userId: p.userId, config: request.config, profile }, progress, context.signal);
      if (context.signal.aborted) throw context.signal.reason as Error;
      await onRun(p.backtestId, job.jobId, { type: 'CompleteWalkForward', data: { backtestId: p.backtestId, jobId: job.jobId, report }, metadata: { now: handler.now() } });
      await release(p.userId, p.backtestId, job.jobId);
      deps.logger.info('walk-forward completed', { jobId: job.jobId, backtestId: p.backtestId, strategyId: request.config.strategyId, windows: report.windows.length });
      return { backtestId: p.backtestId, windows: report.windows.length };
    } catch (error) {
      if (!context.signal.aborted) {
        const reason = error instanceof Error ? error.message : String(error);
        await fail(p, job.jobId, reason).catch((e: unknown) => deps.logger.warn('backtest failure not recorded', { backtestId: p.backtestId, error: String(e) }));
      }
      throw error;
    }
  }

  const kind = (name: string): JobKind => ({
    kind: name,
    run,
    // Every worker that claimed it stopped: the run fails, and the user may ask again.
    async gaveUp(job: JobInfo, reason: string) {
      const parsed = backtestJobParamsSchema.safeParse(job.params);
      if (parsed.success) await fail(parsed.data, job.jobId, reason);
    },
  });
  return [kind(BACKTEST_JOB_KIND), kind(WALK_FORWARD_JOB_KIND)];
}
