/**
 * The market's public GETs (spec section 7): the coin catalogue, prices, candles, price history and
 * a per-coin dashboard summary. They read the market-data port (simulated or CoinGecko, built once
 * per process), not read models: market prices are not facts of this system, so no event stream or
 * projection holds them, and X-Min-Position has nothing to wait for here.
 *
 * - GET /api/coins/supported            { [coinId]: { name, symbol, icon, color } }
 * - GET /api/coins/prices               { [coinId]: { price, changePercent24h } }
 * - GET /api/coins/{coinId}/price       { coinId, symbol, price, changePercent24h, at }
 * - GET /api/coins/{coinId}/ohlc?days=  { coinId, days, interval, intervalMinutes, candles } (each candle
 *                                       with the spec's timestamp and timeLabel besides time)
 * - GET /api/coins/{coinId}/history?days=  [{ time, price }]
 * - GET /api/coins/{coinId}/summary     price, 24 h change, high, low, volume, and the source
 * - GET /api/price[?symbol=ETH]         like /api/coins/{coinId}/price, by symbol in any case
 *
 * Shapes are domain/src/market/contracts.ts's. An unknown coin id or symbol is a 404 naming it; a
 * bad `days` or `symbol` (or any unknown query parameter) a 400 naming the field. Charts are public
 * and change only at their newest candle, so they may be cached (see `chartMaxAgeSeconds`); prices
 * keep the default no-store, since a cached price is a wrong price.
 */
import Router from '@koa/router';
import {
  chartQuerySchema,
  priceQuerySchema,
  type CoinPriceResponse,
  type CoinPricesResponse,
  type CoinSummaryResponse,
  type HistoryResponse,
  type OhlcResponse,
  type SupportedCoinsResponse,
} from '@papertrade/domain/market/contracts';
import { DEFAULT_COIN_SYMBOL } from '@papertrade/domain/market/coins';
import { toOhlcCandle } from '@papertrade/domain/market/candle-label';
import { parseQuery } from '@papertrade/platform/http/body';
import { coinById, coinBySymbol } from './coin-params';
import type { CoinPrice, MarketData } from '@papertrade/platform/market/market-data';

/** The catalogue only changes with a deployment. */
const SUPPORTED_COINS_MAX_AGE_SECONDS = 3600;

/**
 * How long a chart may be cached: a tenth of its candle width, between 5 s and 60 s. Only the newest
 * candle moves (it is still forming), so a cached chart lags by at most a tenth of a candle; 60 s is
 * how often the dashboard refetches a chart (spec section 7), and 5 s keeps a 1-minute chart close
 * to the price card.
 */
export function chartMaxAgeSeconds(intervalMinutes: number): number {
  return Math.min(60, Math.max(5, Math.round((intervalMinutes * 60) / 10)));
}

export function marketRoutes(deps: { marketData: MarketData }): Router {
  const market = deps.marketData;
  const router = new Router();

  router.get('/api/coins/supported', async (ctx) => {
    const body: SupportedCoinsResponse = Object.fromEntries(
      market.supportedCoins().map((c) => [c.id, { name: c.name, symbol: c.symbol, icon: c.icon, color: c.color }]),
    ) as SupportedCoinsResponse;
    ctx.set('Cache-Control', `public, max-age=${SUPPORTED_COINS_MAX_AGE_SECONDS}`);
    ctx.body = body;
  });

  router.get('/api/coins/prices', async (ctx) => {
    const prices = await market.prices();
    const body = Object.fromEntries(prices.map((p) => [p.coinId, { price: p.price, changePercent24h: p.changePercent24h }])) as CoinPricesResponse;
    ctx.body = body;
  });

  router.get('/api/coins/:coinId/price', async (ctx) => {
    const coin = coinById(ctx.params.coinId);
    ctx.body = toPriceResponse(await market.price(coin.id));
  });

  router.get('/api/price', async (ctx) => {
    const { symbol } = parseQuery(ctx, priceQuerySchema);
    const coin = coinBySymbol(symbol ?? DEFAULT_COIN_SYMBOL);
    ctx.body = toPriceResponse(await market.price(coin.id));
  });

  router.get('/api/coins/:coinId/ohlc', async (ctx) => {
    const coin = coinById(ctx.params.coinId);
    const { days } = parseQuery(ctx, chartQuerySchema);
    const series = await market.candles(coin.id, days);
    const width = series.interval.minutes;
    const body: OhlcResponse = { coinId: coin.id, days, interval: series.interval.label, intervalMinutes: width, candles: series.candles.map((c) => toOhlcCandle(c, width)) };
    ctx.set('Cache-Control', `public, max-age=${chartMaxAgeSeconds(series.interval.minutes)}`);
    ctx.body = body;
  });

  router.get('/api/coins/:coinId/history', async (ctx) => {
    const coin = coinById(ctx.params.coinId);
    const { days } = parseQuery(ctx, chartQuerySchema);
    // The chart's closes, so history and ohlc of one range agree point for point.
    const series = await market.candles(coin.id, days);
    const body: HistoryResponse = series.candles.map((c) => ({ time: c.time, price: c.close }));
    ctx.set('Cache-Control', `public, max-age=${chartMaxAgeSeconds(series.interval.minutes)}`);
    ctx.body = body;
  });

  router.get('/api/coins/:coinId/summary', async (ctx) => {
    const coin = coinById(ctx.params.coinId);
    const [price, day] = await Promise.all([market.price(coin.id), market.candles(coin.id, 1)]);
    // The current price belongs to the last 24 hours even when the source's candles lag behind it.
    let high24h = price.price;
    let low24h = price.price;
    for (const c of day.candles) {
      if (c.high > high24h) high24h = c.high;
      if (c.low < low24h) low24h = c.low;
    }
    const body: CoinSummaryResponse = {
      coinId: coin.id,
      name: coin.name,
      symbol: coin.symbol,
      price: price.price,
      change24h: price.change24h,
      changePercent24h: price.changePercent24h,
      high24h,
      low24h,
      volume24h: price.volume24h,
      source: market.source,
      at: price.at,
    };
    ctx.body = body;
  });

  return router;
}




function toPriceResponse(p: CoinPrice): CoinPriceResponse {
  return { coinId: p.coinId, symbol: p.symbol, price: p.price, changePercent24h: p.changePercent24h, at: p.at };
}
