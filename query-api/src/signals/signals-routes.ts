/**
 * The signals slice's GETs (spec section 7):
 *
 * - GET /api/signals[?symbol=&page=&pageSize=&format=]  a page of the signals (newest candle first,
 *   SIGNALS_LIST_LIMIT a page unless pageSize says, at most SIGNALS_MAX_PAGE_SIZE) with their reasons,
 *   and the counts of every signal generated (total, buy, sell, hold), for the symbol (any case) or for
 *   every coin; from the `signals` and `signal-counts` read models. As CSV (?format=csv or Accept:
 *   text/csv): that page, or without page/pageSize every signal up to CSV_MAX_ROWS (../csv.ts).
 * - GET /api/indicators[?symbol=]  the latest RSI, MACD (line, signal, histogram), ma20 (= sma20), sma50, ema20, volume level and price
 *   over closed SIGNAL_CANDLE_MINUTES candles from the market-data port (default ETH): the same
 *   candles and numbers the signal engine evaluates (domain/src/signals/readings.ts).
 *
 * Shapes are domain/src/signals/contracts.ts's. An unknown symbol is a 404 naming it and the
 * supported ones; a bad query (a repeated or over-long symbol, an unknown parameter) a 400.
 */
import Router from '@koa/router';
import { DEFAULT_COIN_SYMBOL, type Coin } from '@papertrade/domain/market/coins';
import { parseQuery } from '@papertrade/platform/http/body';
import { coinBySymbol } from '../market/coin-params';
import { volumeLevel } from '@papertrade/domain/market/indicators/volume-level';
import {
  SIGNAL_HISTORY_DAYS,
  SIGNALS_LIST_LIMIT,
  indicatorsQuerySchema,
  signalsQuerySchema,
  type IndicatorsResponse,
  type SignalsResponse,
} from '@papertrade/domain/signals/contracts';
import { closedCandles, readingsOfLastCandle } from '@papertrade/domain/signals/readings';
import {
  SIGNAL_COUNTS_ALL,
  SIGNAL_COUNTS_PROJECTION,
  SIGNALS_PROJECTION,
  emptySignalCounts,
  toSignal,
  type SignalCountsView,
  type SignalView,
} from '@papertrade/domain/signals/signal-view';
import { ServiceUnavailableError } from '@papertrade/domain/shared/errors';
import type { Scalar } from '@papertrade/platform/document-store/document-store';
import { readsFrom } from '@papertrade/platform/http/min-position';
import { readFreshness } from '@papertrade/platform/http/read-freshness';
import { ANY_CHANGE } from '@papertrade/platform/projections/read-model-cache';
import { intervalLabel, type CandleSeries, type MarketData } from '@papertrade/platform/market/market-data';
import type { QueryApiDeps } from '../deps';
import { csvFilename, pageAsked, readWholeList, sendCsv, wantsCsv } from '../csv';
import { JsonBodies } from '../json-body';

export const SIGNALS_CSV_FIELDS = ['candleTime', 'symbol', 'type', 'confidence', 'price', 'reasons', 'signalId'] as const;

/** One signal as a spreadsheet row; its reasons' texts in one cell, separated by '; '. */
const signalRow = (s: SignalView) => [s.candleTime, s.symbol, s.type, s.confidence, s.price, s.reasons.map((r) => r.text).join('; '), s.signalId];

/**
 * The readings of the last closed candle of `series`, computed once per series (the market data keeps
 * one series per coin for as long as it holds: cached-market-data.ts) and number of closed candles.
 */
const readingsKept = new WeakMap<CandleSeries, { closed: number; last: ReturnType<typeof readingsOfLastCandle> }>();
function readingsOf(series: CandleSeries, nowMs: number): ReturnType<typeof readingsOfLastCandle> {
  // How many have closed, counted from the newest (oldest first, so the closed ones are a prefix).
  const width = series.interval.minutes * 60_000;
  let closedCount = series.candles.length;
  while (closedCount > 0 && series.candles[closedCount - 1]!.time + width > nowMs) closedCount--;
  const kept = readingsKept.get(series);
  if (kept && kept.closed === closedCount) return kept.last;
  const closed = closedCandles(series.candles, series.interval.minutes, nowMs);
  const last = readingsOfLastCandle(closed);
  readingsKept.set(series, { closed: closed.length, last });
  return last;
}

/**
 * GET /api/indicators' answer for a coin at `nowMs` (also the assistant's get_indicators, so the chat
 * states the figures the panel shows); a 503 with Retry-After before the first candle has closed.
 */
export async function indicatorsOf(marketData: MarketData, coin: Coin, nowMs: number): Promise<IndicatorsResponse> {
  const series = await marketData.candles(coin.id, SIGNAL_HISTORY_DAYS);
  const last = readingsOf(series, nowMs);
  if (!last) throw new ServiceUnavailableError(`No closed candle of ${coin.symbol} yet; try again shortly`).retryAfter(series.interval.minutes * 60);
  const { readings } = last;
  return {
    coinId: coin.id,
    symbol: coin.symbol,
    interval: intervalLabel(series.interval.minutes),
    intervalMinutes: series.interval.minutes,
    candleTime: new Date(last.candle.time).toISOString(),
    price: readings.price,
    rsi: readings.rsi,
    macd: readings.macd?.macd ?? null,
    macdSignal: readings.macd?.signal ?? null,
    macdHistogram: readings.macd?.histogram ?? null,
    ma20: readings.sma20,
    sma20: readings.sma20,
    sma50: readings.sma50,
    ema20: readings.ema20,
    volume: readings.volumeRatio === null ? null : volumeLevel(readings.volumeRatio),
  };
}

export function signalsRoutes(deps: Pick<QueryApiDeps, 'readModels' | 'readCache' | 'marketData' | 'clock'>): Router {
  const router = new Router();
  const { readCache } = deps;
  // Public and polled every 10 s while it changes every few minutes: a browser asks again with If-None-Match and gets a 304.
  const signalsBodies = new JsonBodies({ revalidate: true });

  router.get('/api/signals', readsFrom(deps.readModels, SIGNALS_PROJECTION, SIGNAL_COUNTS_PROJECTION), async (ctx) => {
    const { symbol, page, pageSize, format } = parseQuery(ctx, signalsQuerySchema);
    const coin = symbol === undefined ? undefined : coinBySymbol(symbol);
    const signals = await deps.readModels.collection<SignalView>(SIGNALS_PROJECTION);
    const where: Record<string, Scalar> = coin ? { symbol: coin.symbol } : {};
    const read = (skip: number, limit: number) =>
      signals.find({
        where,
        sort: [
          { field: 'candleTimeMs', direction: 'desc' },
          { field: 'symbol', direction: 'asc' },
        ],
        skip,
        limit,
      });
    const count = (await readCache.get<SignalCountsView>(SIGNAL_COUNTS_PROJECTION, coin?.symbol ?? SIGNAL_COUNTS_ALL, readFreshness(ctx))) ?? emptySignalCounts();
    // The counts document counts the same SignalGenerated events as the list holds: the total without a count query.
    const total = count.total;
    if (wantsCsv(ctx, format)) {
      const whole = !pageAsked(ctx);
      const rows = whole ? await readWholeList(read) : await read((page - 1) * pageSize, pageSize);
      sendCsv(ctx, {
        filename: csvFilename(`signals-${coin?.symbol ?? 'all'}`, deps.clock(), whole ? undefined : page),
        fields: SIGNALS_CSV_FIELDS,
        rows: rows.map(signalRow),
        total,
        truncated: whole && total > rows.length,
      });
      return;
    }
    // Kept until any signal changes (a new one every few minutes per coin at most).
    const skip = (page - 1) * pageSize;
    const latest = await readCache.read<SignalView, SignalView[]>(SIGNALS_PROJECTION, ANY_CHANGE, JSON.stringify({ where, skip, limit: pageSize }), () => read(skip, pageSize), readFreshness(ctx));
    // Serialised once while the page and the counts stay the same objects (json-body.ts).
    signalsBodies.send(ctx, [latest, count, coin?.symbol ?? null, page, pageSize], (): SignalsResponse => ({
      symbol: coin?.symbol ?? null,
      signals: latest.map(toSignal),
      counts: count,
      total,
      page,
      pageSize,
      totalPages: Math.ceil(total / pageSize),
    }));
  });

  router.get('/api/indicators', async (ctx) => {
    const { symbol } = parseQuery(ctx, indicatorsQuerySchema);
    const body: IndicatorsResponse = await indicatorsOf(deps.marketData, coinBySymbol(symbol ?? DEFAULT_COIN_SYMBOL), deps.clock().getTime());
    ctx.body = body;
  });

  return router;
}



