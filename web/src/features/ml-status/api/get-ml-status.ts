/**
 * GET /api/ml-status: the AI model's status. The shell polls it every 60 s so the data is warm for
 * the screens that show it (the dashboard polls every 30 s itself). A failure is silent here: no
 * toast, nothing breaks. No domain contract exists for it yet; the fields follow spec section 3.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../../../lib/api-client';

export const ML_STATUS_PATH = '/api/ml-status';
export const ML_STATUS_SHELL_REFETCH_MS = 60_000;

export const mlStatusSchema = z.object({
  modelType: z.string().nullable().optional(),
  trainingDataDays: z.number().nullable().optional(),
  accuracy: z.number().nullable().optional(),
  lastTraining: z.string().nullable().optional(),
});
export type MlStatus = z.infer<typeof mlStatusSchema>;

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
