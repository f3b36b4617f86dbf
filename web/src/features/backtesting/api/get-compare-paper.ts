/**
 * GET /api/backtest/{id}/compare-paper: the backtest's trades lined up with the user's paper trades
 * over the same period, each difference explained. Asked for when the person opens the comparison
 * (it reads the user's paper history), then kept: both sides are in the past.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { comparePaperReportSchema, type ComparePaperReport } from '@papertrade/domain/backtest/contracts';
import { apiRequest, readJson } from '../../../lib/api-client';
import { BACKTEST_PATH } from './get-backtest';

/** The report, and how many differences there are in all (the report lists the first ones: `X-Differences-Total`). */
export interface ComparePaper {
  report: ComparePaperReport;
  differencesTotal: number;
}

export async function getComparePaper(id: string, signal?: AbortSignal): Promise<ComparePaper> {
  const path = `${BACKTEST_PATH}/${encodeURIComponent(id)}/compare-paper`;
  const res = await apiRequest('GET', path, undefined, { signal });
  const report = await readJson(res, comparePaperReportSchema, path);
  const header = Number(res.headers.get('X-Differences-Total'));
  return { report, differencesTotal: Number.isInteger(header) && header >= report.differences.length ? header : report.differences.length };
}

export function comparePaperQueryOptions(id: string) {
  return queryOptions({ queryKey: [BACKTEST_PATH, id, 'compare-paper'] as const, queryFn: ({ signal }) => getComparePaper(id, signal) });
}

export function useComparePaper(id: string, { enabled }: { enabled: boolean }) {
  return useQuery({ ...comparePaperQueryOptions(id), enabled });
}
