/**
 * GET /api/ml-status, followed while a Retrain asked for from the neural card runs: every 2 s until
 * the status names that job as the last one ended, for the 'Model Retrained' / 'Training Failed' toast.
 * The same path as the ML panel's query (features do not import each other): the answer is the
 * domain's contract, and the key is the path, so both read one cache entry.
 */
import { useQuery } from '@tanstack/react-query';
import { mlStatusResponseSchema, type MlStatusResponse } from '@papertrade/domain/ml/contracts';
import { getJson } from '../../../lib/api-client';

export const MODEL_STATUS_PATH = '/api/ml-status';
export const MODEL_STATUS_POLL_MS = 2000;

export function getModelStatus(signal?: AbortSignal): Promise<MlStatusResponse> {
  return getJson(MODEL_STATUS_PATH, mlStatusResponseSchema, { signal });
}

export function useModelStatusUntil(jobId: string | null) {
  return useQuery({
    queryKey: [MODEL_STATUS_PATH] as const,
    queryFn: ({ signal }) => getModelStatus(signal),
    enabled: jobId !== null,
    refetchInterval: (query) => (jobId !== null && query.state.data?.lastJobId !== jobId ? MODEL_STATUS_POLL_MS : false),
  });
}
