/**
 * GET /api/backtest/history (premium, polled every 30 s: spec section 7): the user's backtests,
 * newest first, with their status while queued or running. A finished run refreshes it at once too
 * (the run's mutation and its completion invalidate this key).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { backtestHistoryItemSchema } from '@papertrade/domain/backtest/contracts';
import { backtestModes } from '@papertrade/domain/backtest/service-contracts';
import { getJson } from '../../../lib/api-client';

export const BACKTEST_HISTORY_PATH = '/api/backtest/history';
export const BACKTEST_HISTORY_REFETCH_MS = 30_000;

/** The contract's item; walk-forwards are listed too, told apart by `mode` where the server sends it. */
export const historyItemSchema = backtestHistoryItemSchema.extend({ mode: z.enum(backtestModes).optional() });
export type HistoryItem = z.infer<typeof historyItemSchema>;
const historyResponseSchema = z.array(historyItemSchema);

export function getBacktestHistory(signal?: AbortSignal): Promise<HistoryItem[]> {
  return getJson(BACKTEST_HISTORY_PATH, historyResponseSchema, { signal });
}

export function backtestHistoryQueryOptions() {
  return queryOptions({ queryKey: [BACKTEST_HISTORY_PATH] as const, queryFn: ({ signal }) => getBacktestHistory(signal) });
}

export function useBacktestHistory({ enabled }: { enabled: boolean }) {
  return useQuery({ ...backtestHistoryQueryOptions(), enabled, refetchInterval: BACKTEST_HISTORY_REFETCH_MS });
}
