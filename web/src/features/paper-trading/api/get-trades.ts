/**
 * GET /api/trades, polled every 10 s (spec section 7): the newest page of the user's paper trades
 * (the house demo bot's for visitors, `demo: true`), checked against the trading read contract.
 * `getAllTrades` walks every page for the CSV export.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tradesResponseSchema, type Trade, type TradesResponse } from '@papertrade/domain/trading/read-contracts';
import { getAllTrades as walkAllTrades } from '../../../lib/all-trades';
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

/** Every trade, newest first (lib/all-trades.ts walks the pages). */
export function getAllTrades(signal?: AbortSignal): Promise<Trade[]> {
  return walkAllTrades(new URLSearchParams(), signal);
}
