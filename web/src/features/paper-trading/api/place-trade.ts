/**
 * POST /api/trades: a manual paper trade of the selected coin at the market price. The answer says
 * how it filled (price, fee, cash moved); the portfolio and the trades are then stale, so the keys
 * the caller passes (the app composes them, features never import each other) are invalidated.
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { placeTradeResponseSchema, tradeSides, type PlaceTradeResponse } from '@papertrade/domain/trading/contracts';
import { sendJson } from '../../../lib/api-client';

export const PLACE_TRADE_PATH = '/api/trades';

/** command-api's answer, checked with the trading slice's contract (the route answers that type). */
export type PlacedTrade = PlaceTradeResponse;

/** The body the form sends; the server checks it against `placeTradeRequestSchema` and says what is wrong. */
export interface PlaceTradeInput {
  coinId: string;
  type: (typeof tradeSides)[number];
  amount: number;
  /** BUY only: percent below / above the fill price (issue 17); absent, the position has no automatic exit. */
  stopLossPercent?: number;
  takeProfitPercent?: number;
}

export function placeTrade(request: PlaceTradeInput): Promise<PlacedTrade> {
  return sendJson('POST', PLACE_TRADE_PATH, request, placeTradeResponseSchema);
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
