/**
 * GET /api/coins/{coinId}/price, as the chart needs it: the level of the flat synthetic candles that
 * stand in for an empty history (history-fallback.ts). Read only on that path, so no query of its
 * own here (the dashboard's price card polls the same endpoint through its own feature).
 */
import { coinPriceResponseSchema, type CoinPriceResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';

export function coinPricePath(coinId: string): string {
  return `/api/coins/${encodeURIComponent(coinId)}/price`;
}

export function getCoinPrice(coinId: string, signal?: AbortSignal): Promise<CoinPriceResponse> {
  return getJson(coinPricePath(coinId), coinPriceResponseSchema, { signal });
}
