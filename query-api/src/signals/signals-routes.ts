/**
 * The signals slice's GETs (spec section 7):
 *
 * - GET /api/signals[?symbol=]     the latest signals (newest candle first, at most SIGNALS_LIST_LIMIT)
 *   with their reasons, and the counts of every signal generated (total, buy, sell, hold), for the
 *   symbol (any case) or for every coin; from the `signals` and `signal-counts` read models.
 * - GET /api/indicators[?symbol=]  the latest RSI, MACD, sma20, sma50, ema20, volume level and price
 *   over closed SIGNAL_CANDLE_MINUTES candles from the market-data port (default ETH): the same
 *   candles and numbers the signal engine evaluates (domain/src/signals/readings.ts).
 *
 * Shapes are domain/src/signals/contracts.ts's. An unknown symbol is a 404 naming it and the
 * supported ones; a bad query (a repeated or over-long symbol, an unknown parameter) a 400.
 */
import Router from '@koa/router';
import { DEFAULT_COIN_SYMBOL } from '@papertrade/domain/market/coins';
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
  type SignalCountsView,
  type SignalView,
} from '@papertrade/domain/signals/signal-view';
import { ServiceUnavailableError } from '@papertrade/domain/shared/errors';
import { readsFrom } from '@papertrade/platform/http/min-position';
import { intervalLabel } from '@papertrade/platform/market/market-data';
import type { QueryApiDeps } from '../deps';

export function signalsRoutes(deps: Pick<QueryApiDeps, 'readModels' | 'marketData' | 'clock'>): Router {
  const router = new Router();

  router.get('/api/signals', readsFrom(deps.readModels, SIGNALS_PROJECTION, SIGNAL_COUNTS_PROJECTION), async (ctx) => {
    const { symbol } = parseQuery(ctx, signalsQuerySchema);
    const coin = symbol === undefined ? undefined : coinBySymbol(symbol);
    const signals = await deps.readModels.collection<SignalView>(SIGNALS_PROJECTION);
    const counts = await deps.readModels.collection<SignalCountsView>(SIGNAL_COUNTS_PROJECTION);
    const [latest, count] = await Promise.all([
      signals.find({
        ...(coin ? { where: { symbol: coin.symbol } } : {}),
        sort: [
          { field: 'candleTimeMs', direction: 'desc' },
          { field: 'symbol', direction: 'asc' },
        ],
        limit: SIGNALS_LIST_LIMIT,
      }),
      counts.get(coin?.symbol ?? SIGNAL_COUNTS_ALL),
    ]);
    const body: SignalsResponse = {
      symbol: coin?.symbol ?? null,
      signals: latest.map(({ candleTimeMs: _sortKey, ...signal }) => signal),
      counts: count ?? emptySignalCounts(),
    };
    ctx.body = body;
  });

  router.get('/api/indicators', async (ctx) => {
    const { symbol } = parseQuery(ctx, indicatorsQuerySchema);
    const coin = coinBySymbol(symbol ?? DEFAULT_COIN_SYMBOL);
    const series = await deps.marketData.candles(coin.id, SIGNAL_HISTORY_DAYS);
    const last = readingsOfLastCandle(closedCandles(series.candles, series.interval.minutes, deps.clock().getTime()));
    if (!last) throw new ServiceUnavailableError(`No closed candle of ${coin.symbol} yet; try again shortly`).retryAfter(series.interval.minutes * 60);
    const { readings } = last;
    const body: IndicatorsResponse = {
      coinId: coin.id,
      symbol: coin.symbol,
      interval: intervalLabel(series.interval.minutes),
      intervalMinutes: series.interval.minutes,
      candleTime: new Date(last.candle.time).toISOString(),
      price: readings.price,
      rsi: readings.rsi,
      macd: readings.macd,
      sma20: readings.sma20,
      sma50: readings.sma50,
      ema20: readings.ema20,
      volume: readings.volumeRatio === null ? null : volumeLevel(readings.volumeRatio),
    };
    ctx.body = body;
  });

  return router;
}



