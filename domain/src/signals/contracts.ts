/**
 * Request and response schemas of the signals slice: query-api's `GET /api/signals[?symbol=]` and
 * `GET /api/indicators[?symbol=]`, and their query parameters. web/ imports them, so client and
 * server rules cannot drift apart.
 *
 * - /api/signals: the latest signals (newest candle first, at most SIGNALS_LIST_LIMIT), each with the
 *   reasons that produced it, plus the counts the Active Signals card shows (every signal generated,
 *   for the symbol asked about or for all coins).
 * - /api/indicators: the latest readings over closed candles of SIGNAL_CANDLE_MINUTES, the same
 *   candles the signal engine evaluates.
 */
import { z } from 'zod';
import { coinIds, coinSymbols } from '../market/coins';
import { signalIndicators, signalTypes } from './signal-rules';

/** The candle width signals are evaluated on (and /api/indicators computed on). */
export const SIGNAL_CANDLE_MINUTES = 5;
/** Days of candles read for one evaluation: 1 day is 288 five-minute candles (the chart ladder's width for a day), enough for sma50 and MACD. */
export const SIGNAL_HISTORY_DAYS = 1;
/** How many signals /api/signals lists. */
export const SIGNALS_LIST_LIMIT = 50;

const queryText = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') });

/** `?symbol=` in any case; absent or empty means "every coin" for signals, ETH for indicators. */
const symbolParam = queryText()
  .max(32, 'must be a coin symbol such as ETH, at most 32 characters')
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()));

export const signalsQuerySchema = z.strictObject({ symbol: symbolParam });
export type SignalsQuery = z.input<typeof signalsQuerySchema>;
export const indicatorsQuerySchema = z.strictObject({ symbol: symbolParam });
export type IndicatorsQuery = z.input<typeof indicatorsQuerySchema>;

const signalType = z.enum(signalTypes);
const finite = z.number().finite();

export const signalReasonSchema = z.object({
  indicator: z.enum(signalIndicators),
  value: finite,
  threshold: finite,
  says: signalType,
  text: z.string(),
});

export const signalSchema = z.object({
  signalId: z.string(),
  symbol: z.enum(coinSymbols),
  type: signalType,
  confidence: z.number().min(0).max(100),
  price: z.number().positive().finite(),
  /** The closed candle's open time, ISO-8601. */
  candleTime: z.iso.datetime(),
  reasons: z.array(signalReasonSchema),
});
export type Signal = z.infer<typeof signalSchema>;

export const signalCountsSchema = z.object({
  total: z.number().int().nonnegative(),
  buy: z.number().int().nonnegative(),
  sell: z.number().int().nonnegative(),
  hold: z.number().int().nonnegative(),
});
export type SignalCounts = z.infer<typeof signalCountsSchema>;

/** GET /api/signals[?symbol=]. `symbol` is null when every coin is listed. */
export const signalsResponseSchema = z.object({
  symbol: z.enum(coinSymbols).nullable(),
  signals: z.array(signalSchema),
  counts: signalCountsSchema,
});
export type SignalsResponse = z.infer<typeof signalsResponseSchema>;

/** GET /api/indicators[?symbol=]: null where there is too little history for an indicator. */
export const indicatorsResponseSchema = z.object({
  coinId: z.enum(coinIds),
  symbol: z.enum(coinSymbols),
  /** The candle width, e.g. "5m", and its minutes. */
  interval: z.string(),
  intervalMinutes: z.number().int().positive(),
  /** Open time of the last closed candle the readings are of, ISO-8601. */
  candleTime: z.iso.datetime(),
  /** That candle's close, USD. */
  price: z.number().positive().finite(),
  rsi: finite.nullable(),
  macd: z.object({ macd: finite, signal: finite, histogram: finite }).nullable(),
  sma20: finite.nullable(),
  sma50: finite.nullable(),
  ema20: finite.nullable(),
  volume: z.enum(['HIGH', 'LOW', 'NORMAL']).nullable(),
});
export type IndicatorsResponse = z.infer<typeof indicatorsResponseSchema>;
