/**
 * GET /api/portfolio, polled every 10 s (spec section 7): the signed-in user's paper portfolio, or
 * the house demo bot's for visitors (`demo: true`, DESIGN.md section 6). Checked against the trading
 * slice's read contract, so a server change that breaks the sidebar or the 24h card fails loudly.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { portfolioResponseSchema, type PortfolioResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const PORTFOLIO_PATH = '/api/portfolio';
export const PORTFOLIO_REFETCH_MS = 10_000;

export type Portfolio = PortfolioResponse;

export function getPortfolio(signal?: AbortSignal): Promise<Portfolio> {
  return getJson(PORTFOLIO_PATH, portfolioResponseSchema, { signal });
}

export function portfolioQueryOptions() {
  return queryOptions({
    queryKey: [PORTFOLIO_PATH] as const,
    queryFn: ({ signal }) => getPortfolio(signal),
    refetchInterval: PORTFOLIO_REFETCH_MS,
  });
}

export function usePortfolio() {
  return useQuery(portfolioQueryOptions());
}
