/**
 * GET /api/backtest/{id} for a backtest started from a strategy's card: polled every 2 s until it has
 * completed or failed, for the 'Backtest Completed' / 'Backtest Failed' toast (spec section 8).
 */
import { useQuery } from '@tanstack/react-query';
import { backtestDetailSchema, type BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import { getJson } from '../../../lib/api-client';

export const BACKTEST_POLL_MS = 2000;
export const backtestResultPath = (id: string) => `/api/backtest/${encodeURIComponent(id)}`;

export function getBacktestResult(id: string, signal?: AbortSignal): Promise<BacktestDetail> {
  return getJson(backtestResultPath(id), backtestDetailSchema, { signal });
}

export function useBacktestResult(id: string | null) {
  return useQuery({
    queryKey: [backtestResultPath(id ?? '')] as const,
    queryFn: ({ signal }) => getBacktestResult(id!, signal),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data && (query.state.data.status === 'COMPLETED' || query.state.data.status === 'FAILED') ? false : BACKTEST_POLL_MS),
  });
}
