/**
 * The backtester's deciders (backtest.ts).
 *
 * `backtest-{id}` (backtestDecider):
 * - RequestBacktest on a new stream appends BacktestRequested; on an existing one nothing (the same
 *   request again, e.g. a retry with the same Idempotency-Key).
 * - RecordBacktestTrades appends the pages not recorded yet (a run again after a takeover records each
 *   page once); refused on a walk-forward, and appends nothing once the run has ended.
 * - CompleteBacktest needs every page of `tradeCount` trades recorded (409 otherwise: the trade list
 *   would read short); CompleteWalkForward for a walk-forward; FailBacktest either. A run that ended
 *   (completed or failed) ends once: a second end appends nothing, so a job run again after a takeover
 *   cannot record a second result.
 *
 * `backtester-{userId}` (backtestSlotDecider):
 * - TakeBacktestSlot: refused (409 naming the backtest) while another of the user's runs holds the
 *   slot and took it less than SLOT_EXPIRY_MS ago; the same backtest again appends nothing.
 * - ReleaseBacktestSlot: releases the slot if this backtest holds it, else appends nothing.
 */
import { assertNever, type Decider } from '../shared/decider';
import { IllegalStateError, NotFoundError, ValidationError } from '../shared/errors';
import type { BacktestResult, BacktestTrade, ComparePaperReport, WalkForwardReport } from './contracts';
import {
  evolveBacktest,
  evolveBacktestSlot,
  initialBacktestSlotState,
  initialBacktestState,
  MAX_STORED_DIFFERENCES,
  SLOT_EXPIRY_MS,
  TRADE_PAGE_SIZE,
  type BacktestEvent,
  type BacktestMode,
  type BacktestRequestedData,
  type BacktestRunState,
  type BacktestSlotEvent,
  type BacktestSlotState,
} from './backtest';

type Meta = { metadata: { now: string } };
export type RequestBacktest = { type: 'RequestBacktest'; data: Omit<BacktestRequestedData, 'requestedAt'> } & Meta;
export type RecordBacktestTrades = { type: 'RecordBacktestTrades'; data: { backtestId: string; pages: Array<{ page: number; trades: BacktestTrade[] }> } } & Meta;
export type CompleteBacktest = {
  type: 'CompleteBacktest';
  /** `comparison`: the run's trades beside the owner's paper trades of the period (null when it could not be made). */
  data: { backtestId: string; jobId: string; result: BacktestResult; tradeCount: number; comparison: ComparePaperReport | null };
} & Meta;
export type CompleteWalkForward = { type: 'CompleteWalkForward'; data: { backtestId: string; jobId: string; report: WalkForwardReport } } & Meta;
export type FailBacktest = { type: 'FailBacktest'; data: { backtestId: string; jobId: string; reason: string } } & Meta;
export type BacktestCommand = RequestBacktest | RecordBacktestTrades | CompleteBacktest | CompleteWalkForward | FailBacktest;

/** How many pages `tradeCount` trades fill. */
export const tradePagesOf = (tradeCount: number) => Math.ceil(tradeCount / TRADE_PAGE_SIZE);

function requireRequested(state: BacktestRunState, backtestId: string): Exclude<BacktestRunState, { status: 'NONE' }> {
  if (state.status === 'NONE') throw new NotFoundError(`Backtest ${backtestId} was never requested`);
  return state;
}

function requireMode(state: Exclude<BacktestRunState, { status: 'NONE' }>, mode: BacktestMode): void {
  if (state.request.mode !== mode) throw new IllegalStateError(`Backtest ${state.request.backtestId} is a ${state.request.mode}, not a ${mode}`);
}

export function requestBacktest(command: RequestBacktest, state: BacktestRunState): BacktestEvent[] {
  if (state.status !== 'NONE') return [];
  return [{ type: 'BacktestRequested', data: { ...command.data, requestedAt: command.metadata.now } as BacktestRequestedData }];
}

export function recordBacktestTrades(command: RecordBacktestTrades, state: BacktestRunState): BacktestEvent[] {
  const { backtestId, pages } = command.data;
  const run = requireRequested(state, backtestId);
  requireMode(run, 'backtest');
  if (run.status !== 'REQUESTED') return [];
  const seen = new Set(run.pages);
  const events: BacktestEvent[] = [];
  for (const { page, trades } of pages) {
    if (!Number.isInteger(page) || page < 0) throw new ValidationError(`A trade page is a whole number from 0, got ${page}`);
    if (trades.length === 0 || trades.length > TRADE_PAGE_SIZE) throw new ValidationError(`A trade page holds 1 to ${TRADE_PAGE_SIZE} trades, got ${trades.length}`);
    if (seen.has(page)) continue;
    seen.add(page);
    events.push({ type: 'BacktestTradesRecorded', data: { backtestId, userId: run.request.userId, page, trades } });
  }
  return events;
}

export function completeBacktest(command: CompleteBacktest, state: BacktestRunState): BacktestEvent[] {
  const { backtestId, jobId, result, tradeCount, comparison } = command.data;
  const run = requireRequested(state, backtestId);
  requireMode(run, 'backtest');
  if (run.status !== 'REQUESTED') return [];
  const needed = tradePagesOf(tradeCount);
  const missing = Array.from({ length: needed }, (_, i) => i).filter((p) => !run.pages.includes(p));
  if (missing.length > 0) throw new IllegalStateError(`Backtest ${backtestId} cannot complete: trade pages ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''} are not recorded`);
  const { userId } = run.request;
  const compared: BacktestEvent[] = comparison
    ? [{ type: 'BacktestPaperCompared', data: { backtestId, userId, report: { ...comparison, differences: comparison.differences.slice(0, MAX_STORED_DIFFERENCES) }, differencesTotal: comparison.differences.length } }]
    : [];
  return [...compared, { type: 'BacktestCompleted', data: { backtestId, userId, jobId, result, tradeCount, completedAt: command.metadata.now } }];
}

export function completeWalkForward(command: CompleteWalkForward, state: BacktestRunState): BacktestEvent[] {
  const { backtestId, jobId, report } = command.data;
  const run = requireRequested(state, backtestId);
  requireMode(run, 'walk-forward');
  if (run.status !== 'REQUESTED') return [];
  return [{ type: 'WalkForwardCompleted', data: { backtestId, userId: run.request.userId, jobId, report, completedAt: command.metadata.now } }];
}

export function failBacktest(command: FailBacktest, state: BacktestRunState): BacktestEvent[] {
  const { backtestId, jobId, reason } = command.data;
  const run = requireRequested(state, backtestId);
  if (run.status !== 'REQUESTED') return [];
  return [{ type: 'BacktestFailed', data: { backtestId, userId: run.request.userId, jobId, reason, failedAt: command.metadata.now } }];
}

export const backtestDecider: Decider<BacktestRunState, BacktestCommand, BacktestEvent> = {
  name: 'backtest',
  schemaVersion: 1,
  initialState: initialBacktestState,
  evolve: evolveBacktest,
  decide(command, state) {
    switch (command.type) {
      case 'RequestBacktest':
        return requestBacktest(command, state);
      case 'RecordBacktestTrades':
        return recordBacktestTrades(command, state);
      case 'CompleteBacktest':
        return completeBacktest(command, state);
      case 'CompleteWalkForward':
        return completeWalkForward(command, state);
      case 'FailBacktest':
        return failBacktest(command, state);
      default:
        return assertNever(command);
    }
  },
};

// ---------------------------------------------------------------------------------------------
// The user's slot

export type TakeBacktestSlot = { type: 'TakeBacktestSlot'; data: { userId: string; backtestId: string; jobId: string; mode: BacktestMode } } & Meta;
export type ReleaseBacktestSlot = { type: 'ReleaseBacktestSlot'; data: { userId: string; backtestId: string } } & Meta;
export type BacktestSlotCommand = TakeBacktestSlot | ReleaseBacktestSlot;

export const ONE_AT_A_TIME_MESSAGE = 'You already have a backtest queued or running; wait for it to finish before starting another';

export function takeBacktestSlot(command: TakeBacktestSlot, state: BacktestSlotState): BacktestSlotEvent[] {
  const { userId, backtestId, jobId, mode } = command.data;
  const { now } = command.metadata;
  const held = state.held;
  if (held?.backtestId === backtestId) return [];
  if (held && Date.parse(now) - Date.parse(held.takenAt) < SLOT_EXPIRY_MS) {
    throw new IllegalStateError(`${ONE_AT_A_TIME_MESSAGE} (${held.mode} ${held.backtestId})`, { backtestId: held.backtestId });
  }
  return [{ type: 'BacktestSlotTaken', data: { userId, backtestId, jobId, mode, takenAt: now } }];
}

export function releaseBacktestSlot(command: ReleaseBacktestSlot, state: BacktestSlotState): BacktestSlotEvent[] {
  const { userId, backtestId } = command.data;
  if (state.held?.backtestId !== backtestId) return [];
  return [{ type: 'BacktestSlotReleased', data: { userId, backtestId, releasedAt: command.metadata.now } }];
}

export const backtestSlotDecider: Decider<BacktestSlotState, BacktestSlotCommand, BacktestSlotEvent> = {
  name: 'backtest-slot',
  schemaVersion: 1,
  initialState: initialBacktestSlotState,
  evolve: evolveBacktestSlot,
  decide(command, state) {
    switch (command.type) {
      case 'TakeBacktestSlot':
        return takeBacktestSlot(command, state);
      case 'ReleaseBacktestSlot':
        return releaseBacktestSlot(command, state);
      default:
        return assertNever(command);
    }
  },
};
