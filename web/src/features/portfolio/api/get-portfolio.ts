/**
 * GET /api/portfolio, polled every 10 s (spec section 7). The signed-in user's paper portfolio,
 * or the public demo portfolio for visitors (`demo: true`, DESIGN.md section 6).
 * No domain contract exists for it yet; this schema reads only the fields the client shows and
 * should move to `domain/src/portfolio/contracts.ts` when the portfolio slice lands.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../../../lib/api-client';

export const PORTFOLIO_PATH = '/api/portfolio';
export const PORTFOLIO_REFETCH_MS = 10_000;

export const portfolioSchema = z.object({
  totalValue: z.number(),
  dailyPnL: z.number(),
  ethHoldings: z.number(),
  demo: z.boolean().optional(),
});
export type Portfolio = z.infer<typeof portfolioSchema>;

export function getPortfolio(signal?: AbortSignal): Promise<Portfolio> {
  return getJson(PORTFOLIO_PATH, portfolioSchema, { signal });
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
