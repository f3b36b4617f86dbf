/**
 * GET /api/ml-status: the model's held-out accuracy beside the majority baseline (the caller's own
 * model, else the house model). The shell polls it every 60 s so the data is warm for the screens
 * that show it (the dashboard polls every 30 s itself), and ML_UPDATE refreshes it. A failure is
 * silent here: no toast, nothing breaks. The answer's shape is the domain's contract.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { mlStatusResponseSchema, type MlStatusResponse } from '@papertrade/domain/ml/contracts';
import { getJson } from '../../../lib/api-client';

export const ML_STATUS_PATH = '/api/ml-status';
export const ML_STATUS_SHELL_REFETCH_MS = 60_000;

export const mlStatusSchema = mlStatusResponseSchema;
export type MlStatus = MlStatusResponse;

export function getMlStatus(signal?: AbortSignal): Promise<MlStatus> {
  return getJson(ML_STATUS_PATH, mlStatusSchema, { signal });
}

export function mlStatusQueryOptions() {
  return queryOptions({
    queryKey: [ML_STATUS_PATH] as const,
    queryFn: ({ signal }) => getMlStatus(signal),
  });
}

export function useMlStatus({ refetchInterval }: { refetchInterval: number }) {
  return useQuery({ ...mlStatusQueryOptions(), refetchInterval });
}
