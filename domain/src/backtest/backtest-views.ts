/**
 * The backtester's read models, as pure evolves (the projectors write them, query-api reads them):
 * - `backtests`: one small document per run (backtest or walk-forward): its settings, status and the
 *   history's figures. GET /api/backtest/history lists a user's, newest first; GET /api/backtest/{id}
 *   reads its status here. RUNNING is not an event of this stream (the job's claim is): the reads
 *   take it from the `jobs` read model.
 * - `backtest-results`: one document per completed run: the result with its curves, or the
 *   walk-forward report. Kept apart so the history (polled every 30 s) never carries curves.
 * - `backtest-trades`: one document per page of TRADE_PAGE_SIZE trades, id `{backtestId}:{page}`.
 * - `backtest-comparisons`: one document per completed backtest, its trades beside the owner's paper
 *   trades of the period (BacktestPaperCompared).
 */
import type { DomainEvent } from '../shared/decider';
import type { BacktestResult, BacktestStatus, BacktestTrade, ComparePaperReport, WalkForwardReport, BacktestHistoryItem } from './contracts';
import { BACKTEST_EVENT_TYPES, type BacktestConfig, type BacktestEvent, type BacktestMode, type WalkForwardConfig } from './backtest';
import type { BacktestDetail } from './service-contracts';

export const BACKTESTS_PROJECTION = 'backtests';
export const BACKTEST_RESULTS_PROJECTION = 'backtest-results';
export const BACKTEST_TRADES_PROJECTION = 'backtest-trades';
export const BACKTEST_COMPARISONS_PROJECTION = 'backtest-comparisons';

export type BacktestView = {
  id: string;
  userId: string;
  mode: BacktestMode;
  jobId: string;
  configId: string;
  config: BacktestConfig | WalkForwardConfig;
  /** QUEUED until it ends (RUNNING comes from the job: see the file comment). */
  status: Exclude<BacktestStatus, 'RUNNING'>;
  createdAt: string;
  /** createdAt in ms: the history's order. */
  createdAtMs: number;
  completedAt: string | null;
  totalTrades: number | null;
  winRate: number | null;
  totalReturn: number | null;
  tradeCount: number | null;
  error: string | null;
};

export type BacktestResultView = {
  id: string;
  userId: string;
  mode: BacktestMode;
  result: BacktestResult | null;
  report: WalkForwardReport | null;
};

export type BacktestTradesView = {
  backtestId: string;
  userId: string;
  page: number;
  trades: BacktestTrade[];
};

const backtestIdOf = (event: { type: string; data: unknown }): string | null => {
  if (!BACKTEST_EVENT_TYPES.has(event.type)) return null;
  const id = (event.data as { backtestId?: unknown }).backtestId;
  return typeof id === 'string' ? id : null;
};

export function backtestDocumentId(event: { type: string; data: unknown }): string | null {
  return event.type === 'BacktestTradesRecorded' || event.type === 'BacktestPaperCompared' ? null : backtestIdOf(event);
}

export function evolveBacktestView(doc: BacktestView | null, event: DomainEvent): BacktestView | null {
  if (!BACKTEST_EVENT_TYPES.has(event.type)) return doc;
  const e = event as BacktestEvent;
  if (e.type === 'BacktestRequested') {
    if (doc) return doc;
    const { backtestId, userId, mode, jobId, configId, config, requestedAt } = e.data;
    return { id: backtestId, userId, mode, jobId, configId, config, status: 'QUEUED', createdAt: requestedAt, createdAtMs: Date.parse(requestedAt), completedAt: null, totalTrades: null, winRate: null, totalReturn: null, tradeCount: null, error: null };
  }
  if (!doc) return doc;
  switch (e.type) {
    case 'BacktestTradesRecorded':
    case 'BacktestPaperCompared':
      return doc;
    case 'BacktestCompleted': {
      const { result, tradeCount, completedAt } = e.data;
      return { ...doc, status: 'COMPLETED', completedAt, totalTrades: result.totalTrades, winRate: result.winRate, totalReturn: result.totalReturn, tradeCount, error: null };
    }
    case 'WalkForwardCompleted': {
      const { report, completedAt } = e.data;
      const oos = report.outOfSampleSummary;
      return { ...doc, status: 'COMPLETED', completedAt, totalTrades: oos.totalTrades, winRate: oos.winRate, totalReturn: oos.totalReturn, error: null };
    }
    case 'BacktestFailed':
      return { ...doc, status: 'FAILED', completedAt: e.data.failedAt, error: e.data.reason };
  }
}

export function backtestResultDocumentId(event: { type: string; data: unknown }): string | null {
  return event.type === 'BacktestCompleted' || event.type === 'WalkForwardCompleted' ? backtestIdOf(event) : null;
}

export function evolveBacktestResultView(doc: BacktestResultView | null, event: DomainEvent): BacktestResultView | null {
  if (event.type === 'BacktestCompleted') {
    const { backtestId, userId, result } = (event as Extract<BacktestEvent, { type: 'BacktestCompleted' }>).data;
    return doc ?? { id: backtestId, userId, mode: 'backtest', result, report: null };
  }
  if (event.type === 'WalkForwardCompleted') {
    const { backtestId, userId, report } = (event as Extract<BacktestEvent, { type: 'WalkForwardCompleted' }>).data;
    return doc ?? { id: backtestId, userId, mode: 'walk-forward', result: null, report };
  }
  return doc;
}

export const tradePageDocumentId = (backtestId: string, page: number) => `${backtestId}:${page}`;

export function backtestTradesDocumentId(event: { type: string; data: unknown }): string | null {
  if (event.type !== 'BacktestTradesRecorded') return null;
  const { backtestId, page } = event.data as { backtestId?: unknown; page?: unknown };
  return typeof backtestId === 'string' && typeof page === 'number' ? tradePageDocumentId(backtestId, page) : null;
}

export function evolveBacktestTradesView(doc: BacktestTradesView | null, event: DomainEvent): BacktestTradesView | null {
  if (event.type !== 'BacktestTradesRecorded') return doc;
  const { backtestId, userId, page, trades } = (event as Extract<BacktestEvent, { type: 'BacktestTradesRecorded' }>).data;
  return doc ?? { backtestId, userId, page, trades };
}

/** The status a reader sees: the run's, with RUNNING while its job is claimed (the `jobs` read model). */
export function backtestStatusOf(view: BacktestView, jobStatus: string | null): BacktestStatus {
  if (view.status !== 'QUEUED') return view.status;
  return jobStatus === 'RUNNING' ? 'RUNNING' : 'QUEUED';
}

/** A history row (contracts.ts backtestHistoryItemSchema); a walk-forward's figures are its stitched out-of-sample run's. */
export function backtestHistoryItem(view: BacktestView, status: BacktestStatus): BacktestHistoryItem {
  const c = view.config;
  return {
    id: view.id,
    configId: view.configId,
    totalTrades: view.totalTrades,
    winRate: view.winRate,
    totalReturn: view.totalReturn,
    status,
    strategyId: c.strategyId,
    symbol: c.symbol,
    startDate: c.startDate,
    endDate: c.endDate,
    initialCapital: c.initialCapital,
    createdAt: view.createdAt,
  };
}

/** GET /api/backtest/{id}'s answer. */
export function backtestDetail(view: BacktestView, status: BacktestStatus, queuePosition: number | null, result: BacktestResultView | null): BacktestDetail {
  return {
    id: view.id,
    mode: view.mode,
    status,
    queuePosition: status === 'QUEUED' ? queuePosition : null,
    jobId: view.jobId,
    configId: view.configId,
    config: view.config,
    createdAt: view.createdAt,
    completedAt: view.completedAt,
    error: view.error,
    result: result?.result ?? null,
    report: result?.report ?? null,
    tradeCount: view.tradeCount,
  };
}

/**
 * Which trade pages (documents) hold the trades of a reader's page (1-based, `pageSize` trades), and
 * where those trades start in the first of them.
 */
export function tradePagesFor(page: number, pageSize: number, storedPageSize: number): { first: number; last: number; offset: number; from: number; to: number } {
  const from = (page - 1) * pageSize;
  const to = from + pageSize;
  const first = Math.floor(from / storedPageSize);
  const last = Math.floor((to - 1) / storedPageSize);
  return { first, last, offset: from - first * storedPageSize, from, to };
}

export type BacktestComparisonView = {
  id: string;
  userId: string;
  report: ComparePaperReport;
  /** Every difference found; `report.differences` keeps the first MAX_STORED_DIFFERENCES. */
  differencesTotal: number;
};

export function backtestComparisonDocumentId(event: { type: string; data: unknown }): string | null {
  return event.type === 'BacktestPaperCompared' ? backtestIdOf(event) : null;
}

export function evolveBacktestComparisonView(doc: BacktestComparisonView | null, event: DomainEvent): BacktestComparisonView | null {
  if (event.type !== 'BacktestPaperCompared') return doc;
  const { backtestId, userId, report, differencesTotal } = (event as Extract<BacktestEvent, { type: 'BacktestPaperCompared' }>).data;
  return doc ?? { id: backtestId, userId, report, differencesTotal };
}
