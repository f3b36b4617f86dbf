/**
 * GET /api/exchanges (premium), polled every 30 s: every exchange with the caller's connection
 * (status, the key's last four characters, testnet, the last balance valued at the market now, the
 * mirror switch). Never a secret: the server has none to answer.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { exchangesResponseSchema, type ExchangesResponse } from '@papertrade/domain/exchanges/contracts';
import { getJson } from '../../../lib/api-client';

export const EXCHANGES_PATH = '/api/exchanges';
export const EXCHANGES_REFETCH_MS = 30_000;

export function getExchanges(signal?: AbortSignal): Promise<ExchangesResponse> {
  return getJson(EXCHANGES_PATH, exchangesResponseSchema, { signal });
}

export function exchangesQueryOptions() {
  return queryOptions({ queryKey: [EXCHANGES_PATH] as const, queryFn: ({ signal }) => getExchanges(signal), refetchInterval: EXCHANGES_REFETCH_MS });
}

export function useExchanges({ enabled }: { enabled: boolean }) {
  return useQuery({ ...exchangesQueryOptions(), enabled });
}
