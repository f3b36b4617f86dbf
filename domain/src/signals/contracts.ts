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
import { SIGNAL_FORMULA, SIGNAL_FORMULA_TEXT, signalFormulas, signalIndicators, signalTypes } from './signal-rules';
import { listFormatParam } from '../shared/list-format';

/** What the client shows of the signal formula (it imports contracts only). */
export { SIGNAL_FORMULA, SIGNAL_FORMULA_TEXT, SIGNAL_SCORE_THRESHOLD, type SignalFormula } from './signal-rules';

/** The candle width signals are evaluated on (and /api/indicators computed on). */
export const SIGNAL_CANDLE_MINUTES = 5;
/** Days of candles read for one evaluation: 1 day is 288 five-minute candles (the chart ladder's width for a day), enough for sma50 and MACD. */
export const SIGNAL_HISTORY_DAYS = 1;
/** How many signals a page of /api/signals lists unless pageSize says otherwise. */
export const SIGNALS_LIST_LIMIT = 50;
/** The most a page of /api/signals holds. */
export const SIGNALS_MAX_PAGE_SIZE = 200;

const queryText = () => z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') });

/** `?symbol=` in any case; absent or empty means "every coin" for signals, ETH for indicators. */
const symbolParam = queryText()
  .max(32, 'must be a coin symbol such as ETH, at most 32 characters')
  .optional()
  .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.trim()));

/** A whole number in a query string, from 1 to `max`, given once. */
const pageParam = (max: number) =>
  queryText()
    .regex(/^[1-9][0-9]{0,8}$/, `must be a whole number from 1 to ${max}`)
    .transform(Number)
    .pipe(z.number().max(max, `must be a whole number from 1 to ${max}`));

/** `?symbol=&page=&pageSize=&format=`: a page (from 1) of the signals, newest candle first; JSON or CSV. */
export const signalsQuerySchema = z
  .strictObject({ symbol: symbolParam, page: pageParam(1_000_000).optional(), pageSize: pageParam(SIGNALS_MAX_PAGE_SIZE).optional(), format: listFormatParam })
  .transform((q) => ({ symbol: q.symbol, page: q.page ?? 1, pageSize: q.pageSize ?? SIGNALS_LIST_LIMIT, format: q.format }));
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
  vote: z.union([z.literal(1), z.literal(0), z.literal(-1)]).meta({ description: 'says as a number: BUY +1, SELL -1, HOLD 0' }),
  weight: z.number().positive().finite().meta({ description: 'The indicator\'s weight in the score: RSI and MACD 2, the others 1' }),
  text: z.string(),
});
export type SignalReasonView = z.infer<typeof signalReasonSchema>;

const weight = z.number().nonnegative().finite();
/** The weight of the reasons saying each verdict: what score and confidence are computed from. */
export const voteWeightsSchema = z.object({ buy: weight, sell: weight, hold: weight, total: weight });

/** How a signal's confidence follows from its reasons, for the OpenAPI description. */
export const SIGNAL_CONFIDENCE_DESCRIPTION =
  `Each reason carries its weight and vote; the signal its weights per verdict, score, confidence and the formula's name. ${SIGNAL_FORMULA}: ${SIGNAL_FORMULA_TEXT[SIGNAL_FORMULA]}. ` +
  `Signals generated before it name weighted-vote-v1: ${SIGNAL_FORMULA_TEXT['weighted-vote-v1']}.`;

/**
 * One signal (spec section 3 of both documents: id, type, symbol, description, price, confidence,
 * timestamp), with what it was computed from.
 */
export const signalSchema = z.object({
  id: z.string().meta({ description: "The spec's name for signalId (the same value)" }),
  signalId: z.string(),
  symbol: z.enum(coinSymbols),
  type: signalType,
  description: z.string().meta({ description: 'The verdict and its reasons in one sentence, e.g. "HOLD (13% confidence, mixed evidence): RSI, SMA20, EMA20 say BUY; MACD, SMA50 say SELL; VOLUME says HOLD"' }),
  confidence: z.number().min(0).max(100).meta({ description: 'Percent, whole, by formula' }),
  score: z.number().min(-1).max(1).meta({ description: 'Σ weight·vote / Σ weight of the reasons' }),
  formula: z.enum(signalFormulas).meta({ description: 'The confidence formula (see the endpoint description)' }),
  mixed: z.boolean().meta({ description: 'More weight cancels out (2 × min(buy, sell)) than backs the verdict: conflicting evidence, read as low confidence' }),
  weights: voteWeightsSchema.meta({ description: 'The weight of the reasons saying BUY, SELL and HOLD, and in all' }),
  price: z.number().positive().finite(),
  timestamp: z.iso.datetime().meta({ description: 'When the signal was generated (its candle had closed by then)' }),
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
  /** Signals of the symbol (or of every coin), the page's place among them. */
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  totalPages: z.number().int().nonnegative(),
});
export type SignalsResponse = z.infer<typeof signalsResponseSchema>;

/**
 * GET /api/indicators[?symbol=]: null where there is too little history for an indicator. The spec's
 * fields (section 3: rsi, macd, macdSignal, ma20, volume level) are all here: `macd` is the MACD line
 * (a number, as the spec reads it; it was an object of line, signal and histogram before issue 16,
 * now the three flat fields), `ma20` is sma20 under the spec's name, `volume` the level.
 */
export const indicatorsResponseSchema = z.object({
  coinId: z.enum(coinIds),
  symbol: z.enum(coinSymbols),
  /** The candle width, e.g. "5m", and its minutes. */
  interval: z.string(),
  intervalMinutes: z.number().int().positive(),
  /** Open time of the last closed candle the readings are of, ISO-8601. */
  candleTime: z.iso.datetime(),
  /** That candle's close, USD: the price of the same moment as every reading here. */
  price: z.number().positive().finite(),
  rsi: finite.nullable(),
  /** The MACD line (EMA12 - EMA26 of closes), USD. */
  macd: finite.nullable(),
  /** The MACD signal line (EMA9 of the MACD line), USD. */
  macdSignal: finite.nullable(),
  /** macd - macdSignal, USD. */
  macdHistogram: finite.nullable(),
  /** The 20-candle simple moving average (the spec's ma20; the same value as sma20). */
  ma20: finite.nullable(),
  sma20: finite.nullable(),
  sma50: finite.nullable(),
  ema20: finite.nullable(),
  /** The volume level: the candle's volume against its 20-candle average. */
  volume: z.enum(['HIGH', 'LOW', 'NORMAL']).nullable(),
});
export type IndicatorsResponse = z.infer<typeof indicatorsResponseSchema>;
