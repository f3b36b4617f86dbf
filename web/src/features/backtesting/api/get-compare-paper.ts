/**
 * GET /api/backtest/{id}/compare-paper: the backtest's trades lined up with the user's paper trades
 * over the same period, each difference explained. Asked for when the person opens the comparison
 * (it reads the user's paper history), then kept: both sides are in the past.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { comparePaperReportSchema, type ComparePaperReport } from '@papertrade/domain/backtest/contracts';
import { getJson } from '../../../lib/api-client';
import { BACKTEST_PATH } from './get-backtest';

export function getComparePaper(id: string, signal?: AbortSignal): Promise<ComparePaperReport> {
  return getJson(`${BACKTEST_PATH}/${encodeURIComponent(id)}/compare-paper`, comparePaperReportSchema, { signal });
}

export function comparePaperQueryOptions(id: string) {
  return queryOptions({ queryKey: [BACKTEST_PATH, id, 'compare-paper'] as const, queryFn: ({ signal }) => getComparePaper(id, signal) });
}

export function useComparePaper(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...comparePaperQueryOptions(id), enabled });
}
