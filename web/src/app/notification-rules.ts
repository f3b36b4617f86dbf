/**
 * Which events reach the person as toasts (issue 21: the Notifications tab's switches decide), as
 * pure functions the shell's NotificationToasts applies to what it polls:
 * - botTrades: a new trade of the bot (a signal's trade, or a stop / target close of its position);
 * - botStatus: new entries paused by the drawdown rule, and resumed;
 * - riskAlerts: a new risk alert;
 * - mirrorFills: a mirrored order filled on (or refused by) a testnet.
 * The risk profile's enableNotifications (Bot Settings) is the master switch over the bot's two kinds.
 * What was there when the app loaded is the baseline, never toasted: only what appears after.
 */
import type { MirrorOrder } from '@papertrade/domain/exchanges/contracts';
import type { NotificationPreferences } from '@papertrade/domain/settings/contracts';
import type { RiskAlertView, Trade } from '@papertrade/domain/trading/read-contracts';
import { formatCoinAmount, formatPrice, formatSignedPercent } from '../lib/number-format';

export interface NotificationToast {
  title: string;
  description: string;
  variant?: 'success' | 'destructive';
}

export type NotificationKind = keyof NotificationPreferences;

export function allowed(kind: NotificationKind, preferences: NotificationPreferences, enableNotifications: boolean): boolean {
  if (!preferences[kind]) return false;
  return kind === 'botTrades' || kind === 'botStatus' ? enableNotifications : true;
}

/** The items not seen before; `seen` null is the first look (everything becomes the baseline, nothing is new). */
export function freshItems<T>(seen: ReadonlySet<string> | null, items: readonly T[], keyOf: (item: T) => string): { seen: Set<string>; fresh: T[] } {
  const next = new Set(seen ?? []);
  const fresh: T[] = [];
  for (const item of items) {
    const key = keyOf(item);
    if (next.has(key)) continue;
    next.add(key);
    if (seen !== null) fresh.push(item);
  }
  return { seen: next, fresh };
}

export const isBotTrade = (trade: Pick<Trade, 'source'>) => trade.source !== 'Manual';

export function botTradeToast(trade: Pick<Trade, 'type' | 'amount' | 'symbol' | 'price' | 'source'>): NotificationToast {
  return { title: 'Bot Trade', description: `${trade.type} ${formatCoinAmount(trade.amount)} ${trade.symbol} at ${formatPrice(trade.price)} (${trade.source})` };
}

export function riskAlertToast(alert: Pick<RiskAlertView, 'severity' | 'message'>): NotificationToast {
  const toast: NotificationToast = { title: `Risk Alert (${alert.severity})`, description: alert.message };
  if (alert.severity === 'critical' || alert.severity === 'high') toast.variant = 'destructive';
  return toast;
}

/** A mirrored order's key changes with its status, so its fill (or failure) is new once more. */
export const mirrorKey = (o: Pick<MirrorOrder, 'exchangeId' | 'tradeId' | 'status'>) => `${o.exchangeId}:${o.tradeId}:${o.status}`;

export function mirrorToast(order: MirrorOrder): NotificationToast | null {
  if (order.status === 'filled') {
    return { title: 'Testnet Fill', description: `${order.side} ${formatCoinAmount(order.amount)} ${order.market} filled at ${formatPrice(order.testnetPrice)} (paper ${formatPrice(order.paperPrice)}, ${formatSignedPercent(order.differencePercent)})` };
  }
  if (order.status === 'failed') return { title: 'Testnet Order Failed', description: `${order.side} ${order.market}: ${order.error?.message ?? 'refused'}`, variant: 'destructive' };
  return null;
}

/** The drawdown pause's change, or null when it did not change (or is seen for the first time). */
export function pauseToast(before: boolean | null, now: boolean, reason: string | null): NotificationToast | null {
  if (before === null || before === now) return null;
  return now ? { title: 'Bot Paused', description: reason ?? 'New entries are paused by the drawdown rule', variant: 'destructive' } : { title: 'Bot Resumed', description: 'The drawdown is back within your maximum: the bot opens new positions again' };
}
