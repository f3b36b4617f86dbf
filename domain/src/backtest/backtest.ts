/**
 * The backtester's streams (issue 18; DESIGN.md section 5).
 *
 * `backtest-{id}`: one backtest or walk-forward run.
 *
 *   BacktestRequested -> BacktestTradesRecorded* -> BacktestCompleted      (mode 'backtest')
 *                     -> WalkForwardCompleted                              (mode 'walk-forward')
 *                     -> BacktestFailed                                    (either)
 *
 * The request names its long job (`job-{jobId}`, domain/src/jobs), which a workers process claims and
 * runs; the run records its result here. Every trade of a backtest is kept in the events (the source of
 * truth: a read model can be rebuilt from them), in pages of TRADE_PAGE_SIZE trades
 * (BacktestTradesRecorded, several appends for a long list: one append stays far below EventStoreDB's
 * 1 MB limit), and BacktestCompleted closes the run with the figures and the curves (at most
 * MAX_CURVE_POINTS points each) once every page is recorded. The `backtest-trades` read model keeps a
 * document per page, so GET /api/backtest/{id}/trades reads one or two documents for any page asked.
 *
 * `backtester-{userId}`: the user's slot. At most one backtest or walk-forward per user is queued or
 * running (BacktestSlotTaken when asked, BacktestSlotReleased when it ended): decided on this stream
 * under its optimistic check, so two requests sent at once cannot both pass. A slot held longer than
 * SLOT_EXPIRY_MS no longer blocks (its run was lost without word: a failed append after the slot was
 * taken, say), so nobody is locked out for ever.
 */
import type { DomainEvent } from '../shared/decider';
import type { BacktestResult, BacktestTrade, ComparePaperReport, StrategyId, WalkForwardObjective, WalkForwardReport } from './contracts';
import type { CoinSymbol } from '../market/coins';
import type { RiskProfile } from '../trading/contracts';
import type { StrategyId as AiStrategyId } from '../strategies/strategy-catalogue';

export type BacktestMode = 'backtest' | 'walk-forward';

/** The job kinds the workers run (workers/src/backtest). */
export const BACKTEST_JOB_KIND = 'backtest';
export const WALK_FORWARD_JOB_KIND = 'walk-forward';
export const BACKTEST_JOB_KINDS: readonly string[] = [BACKTEST_JOB_KIND, WALK_FORWARD_JOB_KIND];
export const jobKindOf = (mode: BacktestMode) => (mode === 'backtest' ? BACKTEST_JOB_KIND : WALK_FORWARD_JOB_KIND);

/** Trades per BacktestTradesRecorded event (and per `backtest-trades` document). */
export const TRADE_PAGE_SIZE = 200;
/** Trade pages per append. */
export const TRADE_PAGES_PER_APPEND = 5;
/** Differences a stored comparison keeps (see BacktestPaperCompared). */
export const MAX_STORED_DIFFERENCES = 250;
/** After this a taken slot no longer blocks a new request (see the file comment). */
export const SLOT_EXPIRY_MS = 2 * 60 * 60 * 1000;

/**
 * A backtest's settings as validated (contracts.ts validateBacktestRequest), the period in ISO. An AI
 * strategy's backtest (issue 19, strategies/strategy-backtest.ts) names the strategy (AiStrategyId) and
 * carries its configuration as the parameters.
 */
export type BacktestConfig = {
  strategyId: StrategyId | AiStrategyId;
  symbol: CoinSymbol;
  startDate: string;
  endDate: string;
  initialCapital: number;
  parameters: Record<string, number>;
};

/** A walk-forward's settings as validated (validateWalkForwardRequest). */
export type WalkForwardConfig = Omit<BacktestConfig, 'parameters' | 'strategyId'> & {
  strategyId: StrategyId;
  windows: number;
  inSampleFraction: number;
  objective: WalkForwardObjective;
  parameterSets: number;
};

/**
 * `profile`: the owner's one risk profile when the run was asked (the rules the paper bot trades under),
 * kept with the request so the run (and a run again after a takeover) uses the rules of that moment.
 */
export type BacktestRequestedData = { backtestId: string; userId: string; jobId: string; configId: string; profile: RiskProfile; requestedAt: string } & (
  | { mode: 'backtest'; config: BacktestConfig }
  | { mode: 'walk-forward'; config: WalkForwardConfig }
);

export type BacktestRequested = DomainEvent<'BacktestRequested', BacktestRequestedData>;
export type BacktestTradesRecorded = DomainEvent<'BacktestTradesRecorded', { backtestId: string; userId: string; page: number; trades: BacktestTrade[] }>;
/**
 * The backtest's trades beside the owner's paper trades of the period (compare-paper.ts), worked out by
 * the run when it completes (the period lies in the past, so the paper side is settled). At most
 * MAX_STORED_DIFFERENCES differences are kept (the earliest); `differencesTotal` counts them all.
 */
export type BacktestPaperCompared = DomainEvent<'BacktestPaperCompared', { backtestId: string; userId: string; report: ComparePaperReport; differencesTotal: number }>;
export type BacktestCompleted = DomainEvent<'BacktestCompleted', { backtestId: string; userId: string; jobId: string; result: BacktestResult; tradeCount: number; completedAt: string }>;
export type WalkForwardCompleted = DomainEvent<'WalkForwardCompleted', { backtestId: string; userId: string; jobId: string; report: WalkForwardReport; completedAt: string }>;
export type BacktestFailed = DomainEvent<'BacktestFailed', { backtestId: string; userId: string; jobId: string; reason: string; failedAt: string }>;

export type BacktestEvent = BacktestRequested | BacktestTradesRecorded | BacktestPaperCompared | BacktestCompleted | WalkForwardCompleted | BacktestFailed;
export const BACKTEST_EVENT_TYPES: ReadonlySet<string> = new Set(['BacktestRequested', 'BacktestTradesRecorded', 'BacktestPaperCompared', 'BacktestCompleted', 'WalkForwardCompleted', 'BacktestFailed']);

export type BacktestRunState =
  | { status: 'NONE' }
  | { status: 'REQUESTED'; request: BacktestRequestedData; pages: number[] }
  | { status: 'COMPLETED'; request: BacktestRequestedData; pages: number[] }
  | { status: 'FAILED'; request: BacktestRequestedData; pages: number[]; reason: string };

export const initialBacktestState = (): BacktestRunState => ({ status: 'NONE' });

export function evolveBacktest(state: BacktestRunState, event: BacktestEvent): BacktestRunState {
  switch (event.type) {
    case 'BacktestRequested':
      return state.status === 'NONE' ? { status: 'REQUESTED', request: event.data, pages: [] } : state;
    case 'BacktestPaperCompared':
      return state;
    case 'BacktestTradesRecorded':
      return state.status === 'NONE' || state.pages.includes(event.data.page) ? state : { ...state, pages: [...state.pages, event.data.page] };
    case 'BacktestCompleted':
    case 'WalkForwardCompleted':
      return state.status === 'NONE' ? state : { status: 'COMPLETED', request: state.request, pages: state.pages };
    case 'BacktestFailed':
      return state.status === 'NONE' ? state : { status: 'FAILED', request: state.request, pages: state.pages, reason: event.data.reason };
  }
}

export const BACKTEST_STREAM_PREFIX = 'backtest-';
export const backtestStreamId = (backtestId: string) => `${BACKTEST_STREAM_PREFIX}${backtestId}`;

// ---------------------------------------------------------------------------------------------
// The user's slot, `backtester-{userId}`

export type BacktestSlotTaken = DomainEvent<'BacktestSlotTaken', { userId: string; backtestId: string; jobId: string; mode: BacktestMode; takenAt: string }>;
export type BacktestSlotReleased = DomainEvent<'BacktestSlotReleased', { userId: string; backtestId: string; releasedAt: string }>;
export type BacktestSlotEvent = BacktestSlotTaken | BacktestSlotReleased;

export type BacktestSlotState = { held: { backtestId: string; jobId: string; mode: BacktestMode; takenAt: string } | null };
export const initialBacktestSlotState = (): BacktestSlotState => ({ held: null });

export function evolveBacktestSlot(state: BacktestSlotState, event: BacktestSlotEvent): BacktestSlotState {
  switch (event.type) {
    case 'BacktestSlotTaken': {
      const { backtestId, jobId, mode, takenAt } = event.data;
      return { held: { backtestId, jobId, mode, takenAt } };
    }
    case 'BacktestSlotReleased':
      return state.held?.backtestId === event.data.backtestId ? { held: null } : state;
  }
}

export const backtesterStreamId = (userId: string) => `backtester-${userId}`;
