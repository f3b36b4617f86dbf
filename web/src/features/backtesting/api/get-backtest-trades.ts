/**
 * GET /api/backtest/{id}/trades?page=&pageSize=: one page of a completed backtest's fills (the
 * server pages them from its read model: a year's run has thousands), oldest first.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { backtestTradesPageSchema, type BacktestTradesPage } from '@papertrade/domain/backtest/service-contracts';
import { getJson } from '../../../lib/api-client';
import { BACKTEST_PATH } from './get-backtest';

export const BACKTEST_TRADES_PAGE_SIZE = 25;

export type { BacktestTradesPage };

export function getBacktestTrades(id: string, page: number, signal?: AbortSignal): Promise<BacktestTradesPage> {
  const params = new URLSearchParams({ page: String(page), pageSize: String(BACKTEST_TRADES_PAGE_SIZE) });
  return getJson(`${BACKTEST_PATH}/${encodeURIComponent(id)}/trades?${params}`, backtestTradesPageSchema, { signal });
}

export function backtestTradesQueryOptions(id: string, page: number) {
  return queryOptions({
    queryKey: [BACKTEST_PATH, id, 'trades', page] as const,
    queryFn: ({ signal }) => getBacktestTrades(id, page, signal),
    placeholderData: keepPreviousData,
  });
}

export function useBacktestTrades(id: string, page: number, { enabled }: { enabled: boolean }) {
  return useQuery({ ...backtestTradesQueryOptions(id, page), enabled });
}
