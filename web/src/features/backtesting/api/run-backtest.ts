/**
 * POST /api/backtest/run (premium): answers 202 at once with the backtest's id, its job and its place
 * in the queue; a worker runs it (JOB_PROGRESS on the socket) and the result is read from GET
 * /api/backtest/{id}. Success refreshes the history, which then lists the run as queued.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backtestJobResponseSchema, type BacktestJobResponse } from '@papertrade/domain/backtest/service-contracts';
import { sendJson } from '../../../lib/api-client';
import type { BacktestRequestBody } from '../backtest-form';
import { backtestHistoryQueryOptions } from './get-backtest-history';

export const RUN_BACKTEST_PATH = '/api/backtest/run';

export type { BacktestJobResponse };

export function runBacktest(request: BacktestRequestBody): Promise<BacktestJobResponse> {
  return sendJson('POST', RUN_BACKTEST_PATH, request, backtestJobResponseSchema);
}

export function useRunBacktest() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: runBacktest, onSuccess: () => queryClient.invalidateQueries({ queryKey: backtestHistoryQueryOptions().queryKey }) });
}
