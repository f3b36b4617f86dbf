/** How a trade's fields read on screen and in the export. */
import type { Trade } from '@papertrade/domain/trading/read-contracts';

/** The spec: a blank signal reads Manual. */
export function signalSource(trade: Pick<Trade, 'source'>): string {
  return trade.source.trim() === '' ? 'Manual' : trade.source;
}

/** The lot rule as the screen states it (GET /api/trades says which rule sales follow). */
export function lotRuleNote(rule: Trade['lotRule']): string {
  return rule === 'AVERAGE_COST'
    ? 'Sells are matched to buys at average cost: each sell takes the same share of every open buy.'
    : "Sells are matched to buys first in, first out (FIFO): each sell takes from the oldest open buy first, and a buy's P&L covers only what it still holds.";
}

/**
 * What is left of a trade's lot, under its status: a BUY partly sold, `0.4000 left of 0.5000`; a BUY
 * sold out, `sold`; one a reset discarded, `reset`; a SELL, the rule it followed and the entry price
 * of what it sold (`FIFO · entry …`). Null for a BUY nothing was sold of.
 */
export function lotState(trade: Pick<Trade, 'type' | 'status' | 'closeReason' | 'amount' | 'remainingQuantity' | 'soldQuantity' | 'lotRule'>, coins: (n: number) => string): string | null {
  if (trade.type === 'SELL') return trade.lotRule === 'AVERAGE_COST' ? 'average cost' : 'FIFO';
  if (trade.status === 'CLOSED') return trade.closeReason === 'RESET' ? 'reset' : 'sold';
  if (!trade.soldQuantity) return null;
  return `${coins(trade.remainingQuantity ?? 0)} left of ${coins(trade.amount)}`;
}
