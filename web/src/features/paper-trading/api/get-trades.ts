/**
 * GET /api/trades, polled every 10 s (spec section 7): the newest page of the user's paper trades
 * (the house demo bot's for visitors, `demo: true`), checked against the trading read contract.
 * `getAllTrades` walks every page for the CSV export.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { TRADES_MAX_PAGE_SIZE, tradesResponseSchema, type Trade, type TradesResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const TRADES_PATH = '/api/trades';
export const TRADES_QUERY_ROOT = [TRADES_PATH] as const;
export const TRADES_REFETCH_MS = 10_000;

export function getTrades(signal?: AbortSignal): Promise<TradesResponse> {
  return getJson(TRADES_PATH, tradesResponseSchema, { signal });
}

export function tradesQueryOptions() {
  return queryOptions({
    queryKey: TRADES_QUERY_ROOT,
    queryFn: ({ signal }) => getTrades(signal),
    refetchInterval: TRADES_REFETCH_MS,
  });
}

export function useTrades() {
  return useQuery(tradesQueryOptions());
}

/** Every trade, newest first, page by page at the largest page size the server allows. */
export async function getAllTrades(signal?: AbortSignal): Promise<Trade[]> {
  const trades: Trade[] = [];
  for (let page = 1; ; page += 1) {
    const query = new URLSearchParams({ page: String(page), pageSize: String(TRADES_MAX_PAGE_SIZE) });
    const res = await getJson(`${TRADES_PATH}?${query}`, tradesResponseSchema, { signal });
    trades.push(...res.trades);
    if (page >= res.totalPages || res.trades.length === 0) return trades;
  }
}
