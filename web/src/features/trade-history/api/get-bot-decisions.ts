/**
 * GET /api/bot/decisions, polled every 30 s like the trades: the trading bot's recent refusals of BUY
 * signals (issue 17), each with the rule of the risk profile that refused it, in words and figures.
 * Signed-in users only.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botDecisionsResponseSchema, type BotDecisionsResponse } from '@papertrade/domain/trading/read-contracts';
import { getJson } from '../../../lib/api-client';

export const BOT_DECISIONS_PATH = '/api/bot/decisions';
export const BOT_DECISIONS_REFETCH_MS = 30_000;

export function getBotDecisions(signal?: AbortSignal): Promise<BotDecisionsResponse> {
  return getJson(BOT_DECISIONS_PATH, botDecisionsResponseSchema, { signal });
}

export function botDecisionsQueryOptions() {
  return queryOptions({
    queryKey: [BOT_DECISIONS_PATH] as const,
    queryFn: ({ signal }) => getBotDecisions(signal),
    refetchInterval: BOT_DECISIONS_REFETCH_MS,
  });
}

export function useBotDecisions({ enabled }: { enabled: boolean }) {
  return useQuery({ ...botDecisionsQueryOptions(), enabled });
}
