/** How a trade's fields read on screen and in the export. */
import { EXCHANGES } from '@papertrade/domain/exchanges/contracts';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { botRuleLabels } from '../../lib/bot-rules';
import { formatPrice } from '../../lib/number-format';

/**
 * The Signal Source column: the server's label (a user strategy's trade names the strategy, e.g. 'RSI
 * Mean Reversion strategy'; a house signal's its type, 'BUY signal'; a stop or target close says so).
 * The spec: a blank signal reads Manual.
 */
export function signalSource(trade: Pick<Trade, 'source'>): string {
  return trade.source.trim() === '' ? 'Manual' : trade.source;
}

/**
 * Under the Signal Source of an arbitrage pair's leg (issue 19): the exchange it traded on and the pair
 * its two rows share, e.g. 'Bought on Binance · pair 1a2b3c4d'. Null for any other trade.
 */
export function arbitrageLegLabel(trade: Pick<Trade, 'type' | 'pairId' | 'exchange'>): string | null {
  if (!trade.pairId || !trade.exchange) return null;
  const name = EXCHANGES.find((e) => e.id === trade.exchange)?.name ?? trade.exchange;
  return `${trade.type === 'BUY' ? 'Bought' : 'Sold'} on ${name} · pair ${trade.pairId.slice(0, 8)}`;
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
 * of what it sold (`FIFO · entry …`; an arbitrage pair's SELL leg, `its pair's BUY · entry …`). Null
 * for a BUY nothing was sold of.
 */
export function lotState(trade: Pick<Trade, 'type' | 'status' | 'closeReason' | 'amount' | 'remainingQuantity' | 'soldQuantity' | 'lotRule'>, coins: (n: number) => string): string | null {
  if (trade.type === 'SELL') return trade.lotRule === 'AVERAGE_COST' ? 'average cost' : trade.lotRule === 'PAIR' ? 'its pair\'s BUY' : 'FIFO';
  if (trade.status === 'CLOSED') return trade.closeReason === 'RESET' ? 'reset' : 'sold';
  if (!trade.soldQuantity) return null;
  return `${coins(trade.remainingQuantity ?? 0)} left of ${coins(trade.amount)}`;
}


const money = (value: number) => `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: value < 1 ? 4 : 2 })}`;

/**
 * What decided a trade (issue 17), for the Decision column: a bot trade's rule and the text the bot
 * recorded with its figures; a manual BUY the exits its person set, or that it has none; null
 * otherwise (a manual SELL, a stop or target close: the source says it).
 */
export function decisionLabel(trade: Pick<Trade, 'decision' | 'exits' | 'type'>): { rule: string; text: string } | null {
  if (trade.decision) return { rule: botRuleLabels[trade.decision.rule], text: trade.decision.text };
  if (trade.type !== 'BUY' || !trade.exits || trade.exits.kind === 'PROFILE') return null;
  if (trade.exits.kind === 'NONE') return { rule: 'Manual', text: 'no automatic exit' };
  const { stopLoss, takeProfit, stopLossPercent, takeProfitPercent } = trade.exits;
  const stop = stopLoss === null ? 'no stop loss' : `stop loss ${money(stopLoss)} (${stopLossPercent}% below)`;
  const target = takeProfit === null ? 'no take profit' : `take profit ${money(takeProfit)} (${takeProfitPercent}% above)`;
  return { rule: 'Manual', text: `${stop}, ${target}` };
}

/** A fraction of the price in basis points, as short as it reads: 0.5, 0.02, 3, <0.01. */
function bp(fraction: number): string {
  const value = fraction * 10_000;
  if (value > 0 && value < 0.005) return '<0.01';
  return String(Number(value.toFixed(2)));
}

/** A delay as people say it: 5 s, 1 min 25 s. */
function delayText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}` : `${seconds} s`;
}

/**
 * What a fill met (issue 17: engine/fills.ts), under its price: the market's price then, the half
 * spread and the price impact it paid on top (or off, for a sale), how late a bot order filled when it
 * did, and the level a stop loss or take profit crossed. Null for fills recorded before issue 17.
 */
export function executionLabel(trade: Pick<Trade, 'execution'>): string | null {
  const e = trade.execution;
  if (!e) return null;
  const parts = [`mid ${formatPrice(e.mid)}`, `spread ${bp(e.halfSpread)} bp`, `impact ${bp(e.impact)} bp`];
  if (e.delayMs !== null && e.delayMs > 0) parts.push(`+${delayText(e.delayMs)} late`);
  if (e.level !== null) parts.push(`level ${formatPrice(e.level)}`);
  return parts.join(' · ');
}
