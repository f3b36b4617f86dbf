/**
 * POST /api/backtest/walk-forward (premium): answers 202 at once with the run's id and job, like a
 * backtest; a worker runs it (JOB_PROGRESS on the socket) and GET /api/backtest/{id} answers its
 * status and, once completed, the report (get-backtest.ts): each window's chosen parameters with its
 * in-sample and out-of-sample figures, the stitched out-of-sample curve and both summaries.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WalkForwardRequestInput } from '@papertrade/domain/backtest/contracts';
import { backtestJobResponseSchema, type BacktestJobResponse } from '@papertrade/domain/backtest/service-contracts';
import { sendJson } from '../../../lib/api-client';
import { backtestHistoryQueryOptions } from './get-backtest-history';

export const WALK_FORWARD_PATH = '/api/backtest/walk-forward';

export function runWalkForward(request: WalkForwardRequestInput): Promise<BacktestJobResponse> {
  return sendJson('POST', WALK_FORWARD_PATH, request, backtestJobResponseSchema);
}

export function useRunWalkForward() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: runWalkForward, onSuccess: () => queryClient.invalidateQueries({ queryKey: backtestHistoryQueryOptions().queryKey }) });
}
