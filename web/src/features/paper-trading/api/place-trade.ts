/**
 * POST /api/trades: a manual paper trade of the selected coin at the market price. The answer says
 * how it filled (price, fee, cash moved); the portfolio and the trades are then stale, so the keys
 * the caller passes (the app composes them, features never import each other) are invalidated.
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { z } from 'zod';
import { tradeSides } from '@papertrade/domain/trading/contracts';
import { coinIds, coinSymbols } from '@papertrade/domain/market/coins';
import { sendJson } from '../../../lib/api-client';

export const PLACE_TRADE_PATH = '/api/trades';

/** command-api's answer (trading-routes.ts); it has no domain contract, so it is checked here. */
export const placedTradeSchema = z.object({
  id: z.string(),
  coinId: z.enum(coinIds),
  symbol: z.enum(coinSymbols),
  type: z.enum(tradeSides),
  amount: z.number().positive(),
  price: z.number().positive(),
  fee: z.number().nonnegative(),
  total: z.number(),
  realisedPnl: z.number().nullable(),
  status: z.enum(['OPEN', 'CLOSED']),
  source: z.string(),
  timestamp: z.iso.datetime(),
  position: z.string().nullable(),
});
export type PlacedTrade = z.infer<typeof placedTradeSchema>;

/** The body the form sends; the server checks it against `placeTradeRequestSchema` and says what is wrong. */
export interface PlaceTradeInput {
  coinId: string;
  type: (typeof tradeSides)[number];
  amount: number;
}

export function placeTrade(request: PlaceTradeInput): Promise<PlacedTrade> {
  return sendJson('POST', PLACE_TRADE_PATH, request, placedTradeSchema);
}

export function usePlaceTrade({ invalidates }: { invalidates: readonly QueryKey[] }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeTrade,
    onSuccess: async () => {
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
