/**
 * GET /api/backtest/{id} (premium, the owner's only): one run (a backtest or a walk-forward), its
 * settings and status, and, once completed, its result (the metrics and the equity and drawdown
 * curves) or walk-forward report, or the reason it failed. While it is queued or running it is read
 * again every 2 s (its JOB_PROGRESS messages also ask for it at once when the job ends): the socket
 * is the fast path, this the one that cannot be missed. Once it has ended it never changes, so it is
 * not read again.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { backtestDetailSchema, type BacktestDetail } from '@papertrade/domain/backtest/service-contracts';
import { getJson } from '../../../lib/api-client';

export const BACKTEST_PATH = '/api/backtest';
export const BACKTEST_WHILE_RUNNING_REFETCH_MS = 2_000;

export type { BacktestDetail };

export const isRunning = (status: BacktestDetail['status'] | undefined) => status === 'QUEUED' || status === 'RUNNING';

export function getBacktest(id: string, signal?: AbortSignal): Promise<BacktestDetail> {
  return getJson(`${BACKTEST_PATH}/${encodeURIComponent(id)}`, backtestDetailSchema, { signal });
}

export function backtestQueryOptions(id: string) {
  return queryOptions({
    queryKey: [BACKTEST_PATH, id] as const,
    queryFn: ({ signal }) => getBacktest(id, signal),
    refetchInterval: (query) => (query.state.data === undefined || isRunning(query.state.data.status) ? BACKTEST_WHILE_RUNNING_REFETCH_MS : false),
  });
}

export function useBacktest(id: string | null) {
  return useQuery({ ...backtestQueryOptions(id ?? ''), enabled: id !== null });
}
