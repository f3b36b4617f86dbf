/**
 * A position's stop loss and take profit prices, and whether a candle reached them: the levels the
 * risk monitor's exit scan watches (engine/exit-spec.ts; since issue 17 a close fills at the first
 * tick at or beyond the level, not at the level's price), also what the Active Trades tab shows as
 * stopLoss / takeProfit.
 *
 * The levels are percents of the average entry price from the bot settings (stopLossPercent,
 * takeProfitPercent). A candle reaching a level closes at the level's price, as a resting stop order
 * would; within one candle the order of high and low is unknown, so when both levels are inside it
 * the stop loss is assumed to have come first (the cautious reading: never a profit that may not
 * have happened).
 */
import type { BotSettings } from './contracts';
import type { CloseReason } from './portfolio';

export interface StopLevels {
  stopLoss: number;
  takeProfit: number;
}

export function stopLevels(avgEntryPrice: number, settings: Pick<BotSettings, 'stopLossPercent' | 'takeProfitPercent'>): StopLevels {
  return {
    stopLoss: avgEntryPrice * (1 - settings.stopLossPercent / 100),
    takeProfit: avgEntryPrice * (1 + settings.takeProfitPercent / 100),
  };
}

/** The level a candle (its high and low) reached, with the price to close at; null when neither. */
export function levelReached(levels: StopLevels, candle: { high: number; low: number }): { reason: CloseReason; price: number } | null {
  if (candle.low <= levels.stopLoss) return { reason: 'STOP_LOSS', price: levels.stopLoss };
  if (candle.high >= levels.takeProfit) return { reason: 'TAKE_PROFIT', price: levels.takeProfit };
  return null;
}
