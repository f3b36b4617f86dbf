/**
 * A position's exit levels in the form the exit scan reads (exit-scan.ts), and the ClosePosition a
 * crossing becomes: the one place where the risk monitor and the paper engine turn a position, its
 * exit plan and its owner's risk profile into levels, and a crossing tick into a command, so both
 * close the same way.
 *
 * From the position's exit plan (stop-levels.ts, recorded by the BUY that opened it):
 * - NONE (a manual position without levels): no spec, nothing is scanned;
 * - MANUAL: the stop and target prices its person set (either may be absent: -Infinity, +Infinity);
 * - PROFILE, by the profile's stop-loss type as it is now:
 *   - fixed, atr, volatility: a fixed stop, entry less the stop's distance (v percent of the entry, v x
 *     the ATR14 or v x sigma20 x the entry recorded at the entry, or the figures of now for a position
 *     whose entry recorded none); the target takeProfitRatio times that distance above the entry;
 *   - trailing: `trail` = v / 100 below the highest tick since the entry (the scan follows it tick by
 *     tick), never below the fixed level entry x (1 - v / 100); the target from that fixed distance.
 * A level that cannot be measured (an atr stop without any ATR) is no level: the position keeps its
 * other one.
 */
import { findCoinBySymbol } from '../../market/coins';
import { tickAt, tickTime } from '../../market/market-path';
import type { RiskProfile } from '../contracts';
import { exitsOf, type Position } from '../portfolio';
import type { ClosePosition } from '../portfolio.decider';
import { avgEntryPrice } from '../portfolio-valuation';
import { exitLevels } from '../stop-levels';
import type { ExitCursor, ExitHit, ExitSpec } from './exit-scan';
import { TAKE_PROFIT } from './exit-scan';

const below = (level: number) => (Number.isFinite(level) ? level : Number.NEGATIVE_INFINITY);
const above = (level: number) => (Number.isFinite(level) ? level : Number.POSITIVE_INFINITY);

/**
 * The levels of `position` under `profile`; `atrNow` / `sigmaNow` stand in for figures its entry did
 * not record. Null: the position has no automatic exit (nothing to scan).
 */
export function exitSpecOf(position: Position, profile: RiskProfile, atrNow = Number.NaN, sigmaNow = Number.NaN): ExitSpec | null {
  const plan = exitsOf(position);
  if (plan.kind === 'NONE') return null;
  const entry = avgEntryPrice(position);
  const levels = exitLevels(plan, profile, entry, entry, atrNow, sigmaNow);
  const trail = plan.kind === 'PROFILE' && profile.stopLossType === 'trailing' ? profile.stopLossValue / 100 : 0;
  const spec: ExitSpec = { stopLoss: below(levels.stopLoss), trail, entry, takeProfit: above(levels.takeProfit) };
  return spec.trail === 0 && spec.stopLoss === Number.NEGATIVE_INFINITY && spec.takeProfit === Number.POSITIVE_INFINITY ? null : spec;
}

/** The tick of a position's opening fill: scans start after it (a tick before the position is not its). */
export function openingTick(position: Pick<Position, 'openedAt'>): number {
  return tickAt(Date.parse(position.openedAt));
}

/** A fresh cursor for a position never scanned: at its opening fill, no highest yet. */
export function cursorAtOpening(position: Pick<Position, 'openedAt'>): ExitCursor {
  return { tick: openingTick(position), highest: Number.NaN };
}

/**
 * The ClosePosition of a crossing: the crossing tick's price as the mid, its time as the command's
 * (the close happened then, whenever it is appended), the minute's volume for the impact, the level.
 * `filledAtMs` overrides the tick's time for a source without ticks (its live price's time).
 */
export function closeCommandFor(userId: string, position: Pick<Position, 'positionId' | 'symbol'>, hit: ExitHit, minuteVolumeUsd: number, filledAtMs = tickTime(hit.tick)): ClosePosition {
  const filledAt = new Date(filledAtMs).toISOString();
  if (!findCoinBySymbol(position.symbol)) throw new RangeError(`no coin ${position.symbol}`);
  return {
    type: 'ClosePosition',
    data: {
      userId,
      positionId: position.positionId,
      symbol: position.symbol,
      reason: hit.reason === TAKE_PROFIT ? 'TAKE_PROFIT' : 'STOP_LOSS',
      price: hit.price,
      market: { filledAt, minuteVolumeUsd, level: hit.level },
    },
    metadata: { now: filledAt },
  };
}
