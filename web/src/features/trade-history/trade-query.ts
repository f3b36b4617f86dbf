/**
 * What the Trade History screen asks GET /api/trades for: the tab (All / Buy / Sell as the type),
 * the Filter (coin, status, date range as UTC days) and the page. Filtering and paging happen in the
 * server's store, so a user with thousands of trades loads one page at a time.
 */
import { coinSymbols, type CoinSymbol } from '@papertrade/domain/market/coins';
import { tradeStatuses, type TradeStatus } from '@papertrade/domain/trading/read-contracts';

export type TradeTab = 'ALL' | 'BUY' | 'SELL';

export interface TradeFilter {
  symbol: CoinSymbol | '';
  status: TradeStatus | '';
  /** YYYY-MM-DD (UTC day, inclusive) or ''. */
  from: string;
  to: string;
}

export const EMPTY_FILTER: TradeFilter = { symbol: '', status: '', from: '', to: '' };
export const TRADE_HISTORY_PAGE_SIZE = 25;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isFilterActive(filter: TradeFilter): boolean {
  return filter.symbol !== '' || filter.status !== '' || filter.from !== '' || filter.to !== '';
}

/** A date range that ends before it starts (the server would answer 400). */
export function filterError(filter: TradeFilter): string | null {
  if (filter.from && filter.to && filter.to < filter.from) return 'The end date is before the start date';
  return null;
}

export function tradesSearchParams(filter: TradeFilter, tab: TradeTab, page: number, pageSize: number): URLSearchParams {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (tab !== 'ALL') params.set('type', tab);
  if (filter.symbol && (coinSymbols as readonly string[]).includes(filter.symbol)) params.set('symbol', filter.symbol);
  if (filter.status && (tradeStatuses as readonly string[]).includes(filter.status)) params.set('status', filter.status);
  if (DAY.test(filter.from)) params.set('from', filter.from);
  if (DAY.test(filter.to)) params.set('to', filter.to);
  return params;
}
