/**
 * GET /api/trades, polled every 30 s (spec section 7): one page of the user's trades, newest first,
 * filtered by the server (type, coin, status, date range), with the match count and the all-time
 * summary the stat cards show. `getAllTrades` walks every page of a filter, for the export.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { tradesResponseSchema, type Trade, type TradesResponse } from '@papertrade/domain/trading/read-contracts';
import { getAllTrades as walkAllTrades } from '../../../lib/all-trades';
import { getJson } from '../../../lib/api-client';
import { tradesSearchParams, type TradeFilter, type TradeTab } from '../trade-query';

export const TRADES_PATH = '/api/trades';
export const TRADES_REFETCH_MS = 30_000;

export interface TradesRequest {
  filter: TradeFilter;
  tab: TradeTab;
  page: number;
  pageSize: number;
}

export function getTrades(request: TradesRequest, signal?: AbortSignal): Promise<TradesResponse> {
  const params = tradesSearchParams(request.filter, request.tab, request.page, request.pageSize);
  return getJson(`${TRADES_PATH}?${params}`, tradesResponseSchema, { signal });
}

export function tradesQueryOptions(request: TradesRequest) {
  return queryOptions({
    queryKey: [TRADES_PATH, request] as const,
    queryFn: ({ signal }) => getTrades(request, signal),
    refetchInterval: TRADES_REFETCH_MS,
    // Paging and filtering keep the last page on screen until the next one arrives.
    placeholderData: keepPreviousData,
  });
}

export function useTrades(request: TradesRequest, { enabled }: { enabled: boolean }) {
  return useQuery({ ...tradesQueryOptions(request), enabled });
}

/** Every trade matching the filter and tab, newest first (lib/all-trades.ts walks the pages). */
export function getAllTrades(filter: TradeFilter, tab: TradeTab, signal?: AbortSignal): Promise<Trade[]> {
  return walkAllTrades(tradesSearchParams(filter, tab, 1, 1), signal);
}
