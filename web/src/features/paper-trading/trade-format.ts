/**
 * How a paper trade reads (spec section 9): coin amounts to 4 decimals with the coin's symbol,
 * money with 2 decimals, P&L signed and coloured. A CLOSED BUY has no P&L of its own (it is on the
 * SELL that closed it, so summing never counts a gain twice): it reads as a dash, never as $0.00.
 */
import { direction, formatCoinAmount, formatSignedUsd, MISSING } from '../../lib/number-format';

/** `0.0100 ETH` (lib/number-format's coin amount). */
export function formatAmount(amount: number, symbol: string): string {
  return formatCoinAmount(amount, symbol);
}

/** `{ text: '+$1.23', tone: 'up' }`; an unrealised P&L is marked as such. */
export function formatTradePnl(pnl: number | null, realised: boolean): { text: string; tone: 'up' | 'down' | 'flat'; note: string | null } {
  if (pnl === null) return { text: MISSING, tone: 'flat', note: null };
  return { text: formatSignedUsd(pnl), tone: direction(pnl), note: realised ? null : 'unrealised' };
}

/** `14:03:22` today, `Mar 4, 14:03` on another day (the viewer's time zone). */
export function formatTradeTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return MISSING;
  const sameDay = at.toDateString() === now.toDateString();
  return sameDay
    ? at.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })
    : at.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
}
