/**
 * GET /api/coins/{coin}/ohlc?days=: the price chart's candles, cached per coin and range and
 * refetched every 60 s (spec section 7), with the spec's fallback when it does not answer OK: the
 * history call converted to candles, synthetic candles for an empty history, and 'Failed to fetch
 * price data' when both failed (history-fallback.ts holds those rules; this file only fetches).
 *
 * Any failure of the candle call counts as "not ok": a non-OK status, a network error, or an answer
 * that breaks the contract. A cancelled query (coin or range changed, component gone) is not a
 * failure and does not fall back: its abort is passed on.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ohlcResponseSchema, type OhlcResponse } from '@papertrade/domain/market/contracts';
import { getJson } from '../../../lib/api-client';
import type { Candle } from '../chart-geometry';
import { chartCandles, type FetchOutcome } from '../history-fallback';
import { getCoinPrice } from './get-coin-price';
import { getPriceHistory } from './get-price-history';

export const CHART_REFETCH_MS = 60_000;

export function ohlcPath(coinId: string, days: number): string {
  return `/api/coins/${encodeURIComponent(coinId)}/ohlc?days=${days}`;
}

export function getOhlc(coinId: string, days: number, signal?: AbortSignal): Promise<OhlcResponse> {
  return getJson(ohlcPath(coinId, days), ohlcResponseSchema, { signal });
}

/** What the chart draws for one coin and range. */
export interface ChartData {
  /** The range these candles cover (a placeholder's may differ from the range now chosen). */
  days: number;
  candles: readonly Candle[];
  /** The candle width (from the ohlc answer); null for candles built from history, which have none. */
  intervalMinutes: number | null;
  /** Which call the candles came from. */
  source: 'ohlc' | 'history';
}

async function outcome<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<FetchOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { ok: false };
  }
}

/** The chart's candles: ohlc, else history (and the price, for an empty one), else an error. */
export async function getChartData(coinId: string, days: number, signal?: AbortSignal, now: () => number = Date.now): Promise<ChartData> {
  const ohlc = await outcome(() => getOhlc(coinId, days, signal), signal);
  if (ohlc.ok) return { days, candles: ohlc.value.candles, intervalMinutes: ohlc.value.intervalMinutes, source: 'ohlc' };
  const history = await outcome(() => getPriceHistory(coinId, days, signal), signal);
  let price: number | null = null;
  if (history.ok && history.value.length === 0) {
    const quote = await outcome(() => getCoinPrice(coinId, signal), signal);
    price = quote.ok ? quote.value.price : null;
  }
  return { days, candles: chartCandles(ohlc, history, { days, now: now(), price }), intervalMinutes: null, source: 'history' };
}

export function ohlcQueryKey(coinId: string, days: number) {
  return ['/api/coins', coinId, 'ohlc', { days }] as const;
}

export function ohlcQueryOptions(coinId: string, days: number) {
  return queryOptions({
    queryKey: ohlcQueryKey(coinId, days),
    queryFn: ({ signal }) => getChartData(coinId, days, signal),
    refetchInterval: CHART_REFETCH_MS,
  });
}

/**
 * The chart data of a coin and range. The previous range of the same coin stays on screen while the
 * next one loads (no blank flash on a timeframe click); another coin's candles never stand in.
 */
export function useOhlc(coinId: string, days: number) {
  return useQuery({
    ...ohlcQueryOptions(coinId, days),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === coinId ? previous : undefined),
  });
}
