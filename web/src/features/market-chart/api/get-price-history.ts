/**
 * GET /api/coins/{coin}/history?days=: the chart's closes, one per candle, oldest first. Only read
 * when the candle call fails (spec section 7: "fallback when ohlc is not ok"), by `get-ohlc.ts`'s
 * query function, so it has no query of its own.
 */
import { historyResponseSchema, type HistoryResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

export function priceHistoryPath(coinId: string, days: number): string {
  return `/api/coins/${encodeURIComponent(coinId)}/history?days=${days}`;
}

export function getPriceHistory(coinId: string, days: number, signal?: AbortSignal): Promise<HistoryResponse> {
  return getJson(priceHistoryPath(coinId, days), historyResponseSchema, { signal });
}
