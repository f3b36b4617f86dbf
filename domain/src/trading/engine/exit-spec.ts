/**
 * A position's exit levels in the form the exit scan reads (exit-scan.ts), and the ClosePosition a
 * crossing becomes: the one place where the risk monitor and the paper engine turn a position and
 * its owner's rules into levels, and a crossing tick into a command, so both close the same way.
 *
 * The levels are the bot settings' percents of the average entry price (stop-levels.ts): a fixed stop
 * loss and take profit. The exit spec also carries a trailing fraction (the level follows the highest
 * tick since the entry), which the scan applies when a rule sets it.
 */
import { findCoinBySymbol } from '../../market/coins';
import { tickAt, tickTime } from '../../market/market-path';
import type { BotSettings } from '../contracts';
import type { Position } from '../portfolio';
import type { ClosePosition } from '../portfolio.decider';
import { avgEntryPrice } from '../portfolio-valuation';
import { stopLevels } from '../stop-levels';
import type { ExitCursor, ExitHit, ExitSpec } from './exit-scan';
import { TAKE_PROFIT } from './exit-scan';

/** The levels of `position` under `settings`. */
export function exitSpecOf(position: Position, settings: Pick<BotSettings, 'stopLossPercent' | 'takeProfitPercent'>): ExitSpec {
  const entry = avgEntryPrice(position);
  const levels = stopLevels(entry, settings);
  return { stopLoss: levels.stopLoss, trail: 0, entry, takeProfit: levels.takeProfit };
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
