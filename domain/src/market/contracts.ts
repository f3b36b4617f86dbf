/**
 * Request and response schemas of the market slice: query-api's `/api/coins/*` and `/api/price`
 * answers, their query parameters, and the market feed's ticks on the bus. query-api and the feed
 * worker validate with them and web/ imports them, so client and server rules cannot drift apart.
 *
 * Prices are USD. Times in candles and price points are ms since the Unix epoch (UTC, a candle's
 * open time; a chart's candles also carry it as the spec's `timestamp`, with a `timeLabel`); `at`
 * fields are ISO-8601. A 24-hour change is null when the source does not know it
 * (CoinGecko may not say).
 */
import { z } from 'zod';
import { MAX_CHART_DAYS } from './candle-interval';
import { candleSchema, coinIds, coinSymbols } from './coins';

const coinId = z.enum(coinIds);
const coinSymbol = z.enum(coinSymbols);
const price = z.number().positive().finite();
const percent = z.number().finite().nullable();
const usd = z.number().finite();

// ---------------------------------------------------------------------------------------------
// Query parameters

/** The shortest chart: one minute. Shorter ranges have no candle to draw. */
export const MIN_CHART_DAYS = 1 / 1440;

/** A plain decimal (7, 0.17, .5, 1e-3), no hex, no "Infinity": what a query string should carry. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A query parameter's text; `?days=1&days=7` arrives as an array and is a mistake, not a choice. */
const queryText = () =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') });

/**
 * `days` of a chart: 0 < days <= 365, at least a minute, written as a decimal number. The dashboard
 * sends 0.04, 0.17, 1, 7 and 30; any range in between is allowed too.
 */
export const chartDaysParamSchema = queryText()
  .trim()
  .max(32, { message: 'must be a number of days, at most 32 characters', abort: true })
  .regex(DECIMAL, 'must be a number of days, such as 7 or 0.17')
  .transform(Number)
  .refine((d) => d > 0, { message: 'must be greater than 0', abort: true })
  .refine((d) => d <= MAX_CHART_DAYS, { message: `must be at most ${MAX_CHART_DAYS}`, abort: true })
  .refine((d) => d >= MIN_CHART_DAYS, { message: 'must cover at least one minute (1/1440 of a day)', abort: true });

/** GET /api/coins/{coin}/ohlc and /history. */
export const chartQuerySchema = z.strictObject({ days: chartDaysParamSchema.meta({ description: `Days of history, a decimal number: at least one minute (1/1440), at most ${MAX_CHART_DAYS}` }) });
export type ChartQuery = z.input<typeof chartQuerySchema>;

/** GET /api/price[?symbol=]: a coin symbol in any case; absent or empty means ETH. */
export const priceQuerySchema = z.strictObject({
  symbol: queryText()
    .max(32, 'must be a coin symbol such as ETH, at most 32 characters')
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()))
    .meta({ description: 'A coin symbol, any case (ETH, BTC, ...); absent: ETH' }),
});
export type PriceQuery = z.input<typeof priceQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Answers

/** One coin as the dashboard shows it. */
export const coinInfoSchema = z.object({
  name: z.string(),
  symbol: coinSymbol,
  icon: z.string(),
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/),
});
export type CoinInfo = z.infer<typeof coinInfoSchema>;

/** GET /api/coins/supported: every supported coin, keyed by coin id (all ten, no others). */
export const supportedCoinsResponseSchema = z.record(coinId, coinInfoSchema);
export type SupportedCoinsResponse = z.infer<typeof supportedCoinsResponseSchema>;

/** GET /api/coins/prices: every supported coin's price and 24-hour change, keyed by coin id. */
export const coinPricesResponseSchema = z.record(coinId, z.object({ price, changePercent24h: percent }));
export type CoinPricesResponse = z.infer<typeof coinPricesResponseSchema>;

/** GET /api/coins/{coinId}/price and GET /api/price: one coin's price now. */
export const coinPriceResponseSchema = z.object({
  coinId,
  symbol: coinSymbol,
  price,
  changePercent24h: percent,
  at: z.iso.datetime(),
});
export type CoinPriceResponse = z.infer<typeof coinPriceResponseSchema>;

/**
 * One candle of a chart, with the spec's names besides `time` (candle-label.ts): `timestamp`, the
 * open time in ms since the Unix epoch (= time), and `timeLabel`, that time in UTC for an axis.
 */
export const ohlcCandleSchema = candleSchema.extend({
  timestamp: z.number().int().meta({ description: 'The open time, ms since the Unix epoch (the same as time)' }),
  timeLabel: z.string().meta({ description: 'The open time in UTC: "Mar 4, 14:05" below a day\'s width, "Mar 4, 2026" from a day up' }),
});

/** GET /api/coins/{coin}/ohlc?days=: candles oldest first; the newest may still be forming. */
export const ohlcResponseSchema = z.object({
  coinId,
  days: z.number().positive().max(MAX_CHART_DAYS),
  /** The candle width's name (1m, 5m, 1h, 4h, 2d, ...) and its minutes. */
  interval: z.string(),
  intervalMinutes: z.number().int().positive(),
  candles: z.array(ohlcCandleSchema),
});
export type OhlcResponse = z.infer<typeof ohlcResponseSchema>;

/** GET /api/coins/{coin}/history?days=: the chart's closes, one per candle, oldest first. */
export const pricePointSchema = z.object({ time: z.number().int(), price });
export const historyResponseSchema = z.array(pricePointSchema);
export type HistoryResponse = z.infer<typeof historyResponseSchema>;

export const marketSourceSchema = z.enum(['simulated', 'coingecko']);

/** GET /api/coins/{coinId}/summary: the dashboard's card for one coin. */
export const coinSummaryResponseSchema = z.object({
  coinId,
  name: z.string(),
  symbol: coinSymbol,
  price,
  change24h: usd.nullable(),
  changePercent24h: percent,
  high24h: price,
  low24h: price,
  /** USD traded over the last 24 hours (null when the source does not know it). */
  volume24h: z.number().nonnegative().finite().nullable(),
  /** Where the prices come from: the simulated market or CoinGecko. */
  source: marketSourceSchema,
  at: z.iso.datetime(),
});
export type CoinSummaryResponse = z.infer<typeof coinSummaryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// The bus

/** Ticks go out one subject per coin, `market.tick.<coinId>`: subscribe to `market.tick.*` for all. */
export const MARKET_TICK_SUBJECT_PREFIX = 'market.tick';
export const MARKET_TICK_SUBJECTS = `${MARKET_TICK_SUBJECT_PREFIX}.*`;

export function marketTickSubject(id: (typeof coinIds)[number]): string {
  return `${MARKET_TICK_SUBJECT_PREFIX}.${id}`;
}

/** A market feed tick: one coin's price now (a notice, at most once, like everything on the bus). */
export const marketTickSchema = coinPriceResponseSchema;
export type MarketTick = z.infer<typeof marketTickSchema>;
