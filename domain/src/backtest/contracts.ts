/**
 * The backtester's contracts (issue 18; premium-and-account.md sections 3, 5, 7 and 9): the strategy
 * catalogue, POST /api/backtest/run's request and its validation, the result, the trade list, the
 * history item, the walk-forward request and report, and the backtest-versus-paper report.
 * command-api, query-api, workers and web import them; the engine (this folder) produces them.
 *
 * Conventions (the OpenAPI descriptions repeat them):
 * - Money in USD (2 decimals in the result, full precision inside the engine); prices USD per coin.
 * - Fractions, not percents: totalReturn 0.12 is +12 %; winRate 0.5 is half the closed trades won;
 *   maxDrawdown 0.08 is a fall of 8 % from the peak (always >= 0).
 * - The strategies decide on 5-minute candles (BACKTEST_CANDLE_MINUTES, the live signal engine's
 *   interval), at each candle's close; the orders fill through the paper bot's engine
 *   (domain/src/trading/engine/paper-engine.ts) at the path's 5-second ticks, with its half spread,
 *   impact, stops, targets and the user's risk profile. No second fill model.
 * - A "closed trade" is a fill that realised P&L: a SELL (signal or end of test) or a stop loss /
 *   take profit / trailing stop close. totalTrades, winningTrades, losingTrades and winRate count
 *   closed trades (a BUY opens, it is not a round trip yet). A closed trade with pnl > 0 is a win,
 *   pnl <= 0 a loss (a zero-P&L close after fees is impossible in practice; it counts as a loss).
 * - Sharpe ratio: the mean of the daily returns over their sample standard deviation (n - 1), times
 *   sqrt(365) (crypto trades every day; backtesting.py and vectorbt annualise so), risk-free rate 0.
 *   Daily returns are of the equity at each UTC day's last tick, the first against initialCapital.
 *   null when there are fewer than 2 daily returns or they do not vary.
 * - volatility: the daily returns' sample standard deviation times sqrt(365) (a fraction a year).
 * - maxDrawdown: the largest (peak - equity) / peak over the equity samples (cash plus the position at
 *   the mid, at every 5-minute candle close after the exits up to it, and at the end), from
 *   initialCapital, before downsampling.
 * - profitFactor: gross profit / gross loss of the closed trades (both as positive sums); null when
 *   there is no gross loss (no losing trade, or only trades that closed at exactly 0: it would be
 *   infinite or undefined; JSON has no Infinity); 0 when there are losses and no wins.
 * - averageWin: the mean P&L of the winning closed trades (>= 0); averageLoss: the mean P&L of the
 *   losing ones (<= 0, a negative number). 0 when there are none.
 * - An open position at the end is sold at the last tick through the same engine (reason
 *   END_OF_TEST), so finalBalance is cash and totalReturn = finalBalance / initialCapital - 1.
 * - Curves: at most MAX_CURVE_POINTS points, bucketed evenly in time; the equity curve keeps each
 *   bucket's last point, the drawdown curve each bucket's deepest, so maxDrawdown shows on it.
 */
import { z } from 'zod';
import { coinSymbolSchema, coinSymbols } from '../market/coins';
import { SIMULATION_EPOCH_MS } from '../market/market-path';
import { ValidationError } from '../shared/errors';

// ---------------------------------------------------------------------------------------------
// Limits

/** The strategies' candle interval, minutes (the live signal engine's). */
export const BACKTEST_CANDLE_MINUTES = 5;
/** The longest period one backtest (or one walk-forward) covers, days: a year of 5-second ticks and 1-minute candles. */
export const MAX_BACKTEST_DAYS = 366;
/** The shortest period, days. */
export const MIN_BACKTEST_DAYS = 1;
export const MIN_INITIAL_CAPITAL = 100;
export const MAX_INITIAL_CAPITAL = 10_000_000;
export const DEFAULT_INITIAL_CAPITAL = 10_000;
export const DEFAULT_BACKTEST_SYMBOL = 'ETH';
/** Points of the equity and drawdown curves, at most. */
export const MAX_CURVE_POINTS = 1000;
export const MIN_WALK_FORWARD_WINDOWS = 2;
export const MAX_WALK_FORWARD_WINDOWS = 24;
export const MAX_PARAMETER_SETS = 100;
export const DEFAULT_IN_SAMPLE_FRACTION = 0.75;
export const STRATEGY_REQUIRED_MESSAGE = 'Strategy Required: Please select a trading strategy';
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// Strategies (GET /api/backtest/strategies)

export const strategyIds = ['rsi-mean-reversion', 'ma-crossover', 'macd-momentum', 'house-signals'] as const;
export type StrategyId = (typeof strategyIds)[number];

export const strategyParameterSchema = z.object({
  min: z.number(),
  max: z.number(),
  default: z.number(),
  /** The input's step (1 for whole numbers such as periods). */
  step: z.number().positive().optional(),
  /** What it means, one line. */
  description: z.string().optional(),
});
export type StrategyParameter = z.infer<typeof strategyParameterSchema>;

/** The spec's "Backtest strategy definition". */
export const strategyDefinitionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), strategyParameterSchema),
});
export type StrategyDefinition = z.infer<typeof strategyDefinitionSchema>;
export const strategiesResponseSchema = z.array(strategyDefinitionSchema);
export type StrategiesResponse = z.infer<typeof strategiesResponseSchema>;

const whole = (min: number, max: number, def: number, description: string): StrategyParameter => ({ min, max, default: def, step: 1, description });

/**
 * The catalogue. house-signals at its defaults is exactly the rules the paper bot follows
 * (signals/signal-rules.ts: RSI 30/70, score threshold 0.25, the same weights); its parameters let a
 * walk-forward move those thresholds.
 */
export const backtestStrategies: readonly StrategyDefinition[] = [
  {
    id: 'rsi-mean-reversion',
    name: 'RSI Mean Reversion',
    description: 'Buys when the RSI closes below the oversold level and sells when it closes above the overbought level (Wilder RSI on 5-minute closes).',
    parameters: {
      rsiPeriod: whole(2, 50, 14, 'RSI period, candles'),
      oversold: whole(5, 45, 30, 'BUY below this RSI'),
      overbought: whole(55, 95, 70, 'SELL above this RSI'),
    },
  },
  {
    id: 'ma-crossover',
    name: 'Moving Average Crossover',
    description: 'Buys when the fast simple moving average crosses above the slow one and sells when it crosses below (5-minute closes).',
    parameters: {
      fastPeriod: whole(2, 100, 10, 'Fast SMA period, candles (less than the slow period)'),
      slowPeriod: whole(5, 400, 30, 'Slow SMA period, candles'),
    },
  },
  {
    id: 'macd-momentum',
    name: 'MACD Momentum',
    description: 'Buys when the MACD line crosses above its signal line and sells when it crosses below (EMAs of 5-minute closes).',
    parameters: {
      fastPeriod: whole(2, 50, 12, 'Fast EMA period, candles (less than the slow period)'),
      slowPeriod: whole(5, 100, 26, 'Slow EMA period, candles'),
      signalPeriod: whole(2, 50, 9, 'Signal line EMA period, candles'),
    },
  },
  {
    id: 'house-signals',
    name: 'House Signal Rules',
    description: 'The signal rules the paper bot follows: RSI, MACD, SMA20, SMA50, EMA20 and volume vote with weights 2, 2, 1, 1, 1, 1; BUY or SELL when the weighted score passes the threshold (5-minute candles, as the live signal engine).',
    parameters: {
      rsiOversold: whole(10, 45, 30, 'RSI votes BUY below this'),
      rsiOverbought: whole(55, 90, 70, 'RSI votes SELL above this'),
      scoreThreshold: { min: 0.05, max: 0.95, default: 0.25, step: 0.05, description: 'The weighted score a BUY (>= it) or SELL (<= minus it) needs' },
    },
  },
];

const strategyById = new Map<string, StrategyDefinition>(backtestStrategies.map((s) => [s.id, s]));
export function findStrategy(id: string): StrategyDefinition | undefined {
  return strategyById.get(id);
}

/** Pairs of parameters where the first must be less than the second. */
export const parameterOrder: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  'rsi-mean-reversion': [['oversold', 'overbought']],
  'ma-crossover': [['fastPeriod', 'slowPeriod']],
  'macd-momentum': [['fastPeriod', 'slowPeriod']],
  'house-signals': [['rsiOversold', 'rsiOverbought']],
};

// ---------------------------------------------------------------------------------------------
// POST /api/backtest/run

/** YYYY-MM-DD (a UTC day) or a full ISO-8601 date-time. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const backtestDateSchema = z
  .string('must be a date, YYYY-MM-DD or ISO-8601')
  .max(40, 'must be a date, YYYY-MM-DD or ISO-8601')
  .refine((s) => (DATE_ONLY.test(s) ? z.iso.date().safeParse(s).success : z.iso.datetime({ offset: true }).safeParse(s).success), 'must be a date, YYYY-MM-DD or ISO-8601');

const strategyIdSchema = z
  .string({ error: () => STRATEGY_REQUIRED_MESSAGE })
  .trim()
  .min(1, STRATEGY_REQUIRED_MESSAGE)
  .max(100, 'strategyId is too long');

const parameterValue = z.number('each parameter must be a number').finite('each parameter must be a finite number');
/** Own keys a record schema would drop silently (assigning them sets the prototype): refused by name. */
const UNSAFE_KEYS = ['__proto__', 'constructor', 'prototype'];
const parametersSchema = z.preprocess(
  (value, ctx) => {
    if (value && typeof value === 'object') {
      for (const key of UNSAFE_KEYS) if (Object.prototype.hasOwnProperty.call(value, key)) ctx.issues.push({ code: 'custom', message: `unknown parameter ${JSON.stringify(key)}`, path: [key], input: value });
    }
    return value;
  },
  z
  .record(z.string().max(64, 'parameter names are at most 64 characters'), parameterValue, 'parameters must be an object of names to numbers')
  .refine((p) => Object.keys(p).length <= 20, 'at most 20 parameters')
  .default({}),
);

export const initialCapitalSchema = z
  .number('initialCapital must be a number')
  .finite('initialCapital must be a finite number')
  .min(MIN_INITIAL_CAPITAL, `initialCapital must be from ${MIN_INITIAL_CAPITAL} to ${MAX_INITIAL_CAPITAL}`)
  .max(MAX_INITIAL_CAPITAL, `initialCapital must be from ${MIN_INITIAL_CAPITAL} to ${MAX_INITIAL_CAPITAL}`);

/**
 * The body's shape (zod); validateBacktestRequest then checks it against the catalogue, the history
 * and the clock. A missing or empty strategyId fails with STRATEGY_REQUIRED_MESSAGE.
 */
export const backtestRequestSchema = z.strictObject({
  strategyId: strategyIdSchema,
  symbol: z.string('symbol must be a string').max(10, `symbol must be one of ${coinSymbols.join(', ')}`).pipe(coinSymbolSchema).default(DEFAULT_BACKTEST_SYMBOL),
  startDate: backtestDateSchema,
  endDate: backtestDateSchema,
  initialCapital: initialCapitalSchema.default(DEFAULT_INITIAL_CAPITAL),
  parameters: parametersSchema,
});
export type BacktestRequestInput = z.input<typeof backtestRequestSchema>;
export type BacktestRequest = z.output<typeof backtestRequestSchema>;

/** A request checked and normalised: times in ms (start inclusive, end exclusive), every parameter present. */
export interface ValidatedBacktestRequest {
  strategyId: StrategyId;
  symbol: (typeof coinSymbols)[number];
  /** ISO of startMs / endMs. */
  startDate: string;
  endDate: string;
  startMs: number;
  endMs: number;
  initialCapital: number;
  /** Every parameter of the strategy: the sent ones, the defaults for the rest. */
  parameters: Record<string, number>;
}

/**
 * Dates: YYYY-MM-DD start means that UTC day's 00:00; YYYY-MM-DD end means the end of that UTC day
 * (the next day's 00:00, exclusive), capped at `nowMs` (so "today" runs up to now). A date-only end
 * may be tomorrow in UTC (a user east of Greenwich), a full ISO end may not be after now. Times are
 * floored to the minute.
 */
function dateStartMs(s: string): number {
  return DATE_ONLY.test(s) ? Date.parse(`${s}T00:00:00Z`) : Date.parse(s);
}
function minuteFloor(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

function fail(field: string, message: string): never {
  throw new ValidationError(message, { field });
}

/**
 * Refuses a request its zod schema refused (a refusal has at least one issue), by its first problem:
 * a strategy missing or unknown first, then the first issue's field.
 */
function failOnFirstIssue(issues: z.ZodError['issues']): never {
  // Stryker disable next-line ConditionalExpression,ArrowFunction,StringLiteral: equivalent while strategyId is the schemas' first key: zod reports the issues in the schema's key order, so a strategyId issue is the first one and finding none answers the first one too (the `!==` and `&&` mutants stay, and die in backtest-request-first-problem.unit.spec).
  const issue = issues.find((i) => i.path[0] === 'strategyId') ?? issues[0]!;
  const field = issue.path.map(String).join('.') || 'body';
  fail(field, issue.path[0] === 'strategyId' ? STRATEGY_REQUIRED_MESSAGE : `${field}: ${issue.message}`);
}

/** Checks the strategy and its parameters (bounds, whole numbers where step is 1, order); fills defaults. Throws ValidationError naming the field. */
export function validateStrategyParameters(strategyId: string, parameters: Record<string, number>): { strategy: StrategyDefinition; parameters: Record<string, number> } {
  if (strategyId.trim() === '') fail('strategyId', STRATEGY_REQUIRED_MESSAGE);
  const strategy = findStrategy(strategyId);
  if (!strategy) fail('strategyId', `unknown strategy ${JSON.stringify(strategyId.slice(0, 100))}: one of ${strategyIds.join(', ')}`);
  const out: Record<string, number> = {};
  for (const name of Object.keys(parameters)) {
    if (!Object.prototype.hasOwnProperty.call(strategy.parameters, name)) {
      fail(`parameters.${name.slice(0, 64)}`, `unknown parameter ${JSON.stringify(name.slice(0, 64))} for ${strategy.id}: ${Object.keys(strategy.parameters).join(', ')}`);
    }
  }
  for (const [name, bounds] of Object.entries(strategy.parameters)) {
    const sent = Object.prototype.hasOwnProperty.call(parameters, name) ? parameters[name] : undefined;
    const value = sent ?? bounds.default;
    if (!Number.isFinite(value)) fail(`parameters.${name}`, `parameters.${name} must be a finite number`);
    if (value < bounds.min || value > bounds.max) fail(`parameters.${name}`, `parameters.${name} must be from ${bounds.min} to ${bounds.max}`);
    if (bounds.step === 1 && !Number.isInteger(value)) fail(`parameters.${name}`, `parameters.${name} must be a whole number`);
    out[name] = value;
  }
  for (const [low, high] of parameterOrder[strategy.id] ?? []) {
    if (!((out[low] as number) < (out[high] as number))) fail(`parameters.${high}`, `parameters.${low} must be less than parameters.${high}`);
  }
  return { strategy, parameters: out };
}

/** Checks the period against the history and the clock; answers [startMs, endMs). */
export function validatePeriod(startDate: string, endDate: string, nowMs: number): { startMs: number; endMs: number } {
  const startMs = minuteFloor(dateStartMs(startDate));
  if (!Number.isFinite(startMs)) fail('startDate', 'startDate must be a date, YYYY-MM-DD or ISO-8601');
  const endOnly = DATE_ONLY.test(endDate);
  const rawEnd = endOnly ? dateStartMs(endDate) + DAY_MS : Date.parse(endDate);
  if (!Number.isFinite(rawEnd)) fail('endDate', 'endDate must be a date, YYYY-MM-DD or ISO-8601');
  const historyStart = new Date(SIMULATION_EPOCH_MS).toISOString().slice(0, 10);
  if (startMs < SIMULATION_EPOCH_MS) fail('startDate', `startDate must not be before the history's start, ${historyStart}`);
  if (startMs >= nowMs) fail('startDate', 'startDate must be in the past');
  if (endOnly ? rawEnd - DAY_MS > nowMs + DAY_MS : rawEnd > nowMs) fail('endDate', 'endDate must not be in the future');
  const endMs = minuteFloor(Math.min(rawEnd, nowMs));
  if (!(startMs < endMs)) fail('endDate', 'endDate must be after startDate');
  if (endMs - startMs < MIN_BACKTEST_DAYS * DAY_MS) fail('endDate', `the period must be at least ${MIN_BACKTEST_DAYS} day`);
  if (endMs - startMs > MAX_BACKTEST_DAYS * DAY_MS) fail('endDate', `the period must be at most ${MAX_BACKTEST_DAYS} days`);
  return { startMs, endMs };
}

/**
 * The request checked against the catalogue, the history and the clock (pure: `nowMs` is passed).
 * Throws ValidationError naming the field (`extra.field`): strategyId (missing: 'Strategy Required:
 * Please select a trading strategy'; unknown), parameters.<name> (unknown name, out of bounds, not a
 * whole number, out of order), startDate (before the history's start, SIMULATION_EPOCH_MS, or not in
 * the past), endDate (in the future, not after the start, a period shorter than a day or longer than
 * MAX_BACKTEST_DAYS), and the zod shape's fields. Parameters left out take their defaults.
 */
export function validateBacktestRequest(request: unknown, nowMs: number): ValidatedBacktestRequest {
  const parsed = backtestRequestSchema.safeParse(request);
  if (!parsed.success) {
    failOnFirstIssue(parsed.error.issues);
  }
  const body = parsed.data;
  const { strategy, parameters } = validateStrategyParameters(body.strategyId, body.parameters);
  const { startMs, endMs } = validatePeriod(body.startDate, body.endDate, nowMs);
  return {
    strategyId: strategy.id as StrategyId,
    symbol: body.symbol,
    startDate: new Date(startMs).toISOString(),
    endDate: new Date(endMs).toISOString(),
    startMs,
    endMs,
    initialCapital: body.initialCapital,
    parameters,
  };
}

/** The settings' canonical text (strategy, symbol, period, capital, parameters sorted): equal settings, equal key (configId may be its hash). */
export function backtestConfigKey(r: Pick<ValidatedBacktestRequest, 'symbol' | 'startMs' | 'endMs' | 'initialCapital' | 'parameters'> & { strategyId: string }): string {
  const params = Object.keys(r.parameters)
    .sort()
    .map((k) => `${k}=${r.parameters[k]}`)
    .join(',');
  return `${r.strategyId}|${r.symbol}|${r.startMs}|${r.endMs}|${r.initialCapital}|${params}`;
}

// ---------------------------------------------------------------------------------------------
// The result

export const tradeReasons = ['SIGNAL', 'STOP_LOSS', 'TAKE_PROFIT', 'TRAILING_STOP', 'END_OF_TEST'] as const;
export type TradeReason = (typeof tradeReasons)[number];

/** What the fill met: the paper engine's `execution` (trading/engine/fills.ts). */
export const backtestExecutionSchema = z.object({
  /** The tick's mid price, USD per coin. */
  mid: z.number(),
  /** Half the spread paid, a fraction of the mid. */
  halfSpread: z.number(),
  /** The price impact paid, a fraction of the mid. */
  impact: z.number(),
  /** The tick's time, ISO. */
  filledAt: z.string(),
  /** A signal's order: when it was meant to fill (its candle's close plus the bot's latency). */
  intendedAt: z.string().nullable(),
  delayMs: z.number().nullable(),
  /** A stop loss / take profit / trailing stop: the level the tick crossed. */
  level: z.number().nullable(),
});
export type BacktestExecution = z.infer<typeof backtestExecutionSchema>;

/** One fill (SimulatedTradePlaced or PositionClosed of the engine). */
export const backtestTradeSchema = z.object({
  tradeId: z.string(),
  /** The fill's time, ISO (the tick's). */
  time: z.string(),
  side: z.enum(['BUY', 'SELL']),
  symbol: z.enum(coinSymbols),
  /** Coins. */
  amount: z.number(),
  /** The fill price, USD per coin. */
  price: z.number(),
  /** USD. */
  fee: z.number(),
  /** SELL: the realised P&L net of both fees, USD; BUY: null. */
  pnl: z.number().nullable(),
  reason: z.enum(tradeReasons),
  /** The strategy's signal the order followed (SIGNAL fills). */
  signalId: z.string().optional(),
  /** The bot rule that sized or refused it, in words (the paper bot's BotDecision rule), when there is one. */
  rule: z.string().optional(),
  /** The exchange of the fill, when it is not the simulated market's one price (the arbitrage strategy's legs). */
  exchange: z.string().optional(),
  execution: backtestExecutionSchema,
});
export type BacktestTrade = z.infer<typeof backtestTradeSchema>;

export const performanceMetricsSchema = z.object({
  winningTrades: z.number().int(),
  losingTrades: z.number().int(),
  /** Mean P&L of the winning closed trades, USD (>= 0). */
  averageWin: z.number(),
  /** Mean P&L of the losing closed trades, USD (<= 0). */
  averageLoss: z.number(),
  /** Gross profit / gross loss; null without a gross loss. */
  profitFactor: z.number().nullable(),
  /** Annualised volatility of the daily returns (sqrt(365)), a fraction. */
  volatility: z.number(),
});
export type PerformanceMetrics = z.infer<typeof performanceMetricsSchema>;

export const equityPointSchema = z.object({ time: z.string(), equity: z.number() });
export const drawdownPointSchema = z.object({ time: z.string(), drawdown: z.number() });

/** The figures without the curves (what walk-forward windows and summaries report). */
export const backtestFiguresSchema = z.object({
  totalReturn: z.number(),
  winRate: z.number(),
  maxDrawdown: z.number(),
  totalTrades: z.number().int(),
  finalBalance: z.number(),
  sharpeRatio: z.number().nullable(),
  performanceMetrics: performanceMetricsSchema,
});
export type BacktestFigures = z.infer<typeof backtestFiguresSchema>;

export const backtestResultSchema = backtestFiguresSchema.extend({
  /** Fills (BUYs and closes), whatever totalTrades counts. */
  fills: z.number().int(),
  /** Signals the strategy gave, and those the bot's rules refused or skipped. */
  signals: z.number().int(),
  refusedSignals: z.number().int(),
  equityCurve: z.array(equityPointSchema),
  drawdownCurve: z.array(drawdownPointSchema),
  /**
   * What the run assumed, in words, when it is more than the catalogue's rule through the paper engine
   * (the AI strategies' backtests: how the technical strategy exits, which model decided each neural
   * candle and that none was trained after it, how an arbitrage round trip fills).
   */
  notes: z.array(z.string()).optional(),
});
export type BacktestResult = z.infer<typeof backtestResultSchema>;

/** What runBacktest answers: the result and every trade (the service stores trades where a read model pages them). */
export interface BacktestRun {
  result: BacktestResult;
  trades: BacktestTrade[];
}

// ---------------------------------------------------------------------------------------------
// History (GET /api/backtest/history)

export const backtestStatuses = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export type BacktestStatus = (typeof backtestStatuses)[number];

export const backtestHistoryItemSchema = z.object({
  id: z.string(),
  /** The settings' id (equal settings, equal id: backtestConfigKey). */
  configId: z.string(),
  /** Null until completed. */
  totalTrades: z.number().int().nullable(),
  winRate: z.number().nullable(),
  totalReturn: z.number().nullable(),
  status: z.enum(backtestStatuses),
  strategyId: z.string(),
  symbol: z.enum(coinSymbols),
  startDate: z.string(),
  endDate: z.string(),
  initialCapital: z.number(),
  createdAt: z.string(),
});
export type BacktestHistoryItem = z.infer<typeof backtestHistoryItemSchema>;
export const backtestHistoryResponseSchema = z.array(backtestHistoryItemSchema);

/** Progress of a running job, a fraction 0..1 (the engine's callback). */
export type BacktestProgress = (fractionDone: number) => void;

// ---------------------------------------------------------------------------------------------
// POST /api/backtest/walk-forward

export const walkForwardObjectives = ['sharpeRatio', 'totalReturn', 'profitFactor'] as const;
export type WalkForwardObjective = (typeof walkForwardObjectives)[number];

/**
 * Rolling windows: the period [start, end) is cut so the out-of-sample parts tile its tail with no
 * gap: with W windows and in-sample fraction f, out-of-sample length o = T / (W + f / (1 - f)),
 * in-sample length i = o x f / (1 - f); window k (0-based) is in-sample [start + k·o, start + k·o + i)
 * and out-of-sample [start + k·o + i, start + (k + 1)·o + i). parameterSets: how many parameter sets
 * each window tries in-sample (the strategy's defaults first, then a deterministic Halton sequence
 * within the bounds, rounded to each parameter's step; sets breaking an order rule are skipped).
 */
export const walkForwardRequestSchema = z.strictObject({
  strategyId: strategyIdSchema,
  symbol: z.string('symbol must be a string').max(10, `symbol must be one of ${coinSymbols.join(', ')}`).pipe(coinSymbolSchema).default(DEFAULT_BACKTEST_SYMBOL),
  startDate: backtestDateSchema,
  endDate: backtestDateSchema,
  initialCapital: initialCapitalSchema.default(DEFAULT_INITIAL_CAPITAL),
  windows: z.int('windows must be a whole number').min(MIN_WALK_FORWARD_WINDOWS, `windows must be from ${MIN_WALK_FORWARD_WINDOWS} to ${MAX_WALK_FORWARD_WINDOWS}`).max(MAX_WALK_FORWARD_WINDOWS, `windows must be from ${MIN_WALK_FORWARD_WINDOWS} to ${MAX_WALK_FORWARD_WINDOWS}`).default(6),
  inSampleFraction: z.number('inSampleFraction must be a number').min(0.5, 'inSampleFraction must be from 0.5 to 0.9').max(0.9, 'inSampleFraction must be from 0.5 to 0.9').default(DEFAULT_IN_SAMPLE_FRACTION),
  objective: z.enum(walkForwardObjectives, { error: () => `objective must be one of ${walkForwardObjectives.join(', ')}` }).default('sharpeRatio'),
  parameterSets: z.int('parameterSets must be a whole number').min(1, `parameterSets must be from 1 to ${MAX_PARAMETER_SETS}`).max(MAX_PARAMETER_SETS, `parameterSets must be from 1 to ${MAX_PARAMETER_SETS}`).default(MAX_PARAMETER_SETS),
});
export type WalkForwardRequestInput = z.input<typeof walkForwardRequestSchema>;
export type WalkForwardRequest = z.output<typeof walkForwardRequestSchema>;

export interface ValidatedWalkForwardRequest extends Omit<WalkForwardRequest, 'strategyId' | 'symbol' | 'startDate' | 'endDate'> {
  strategyId: StrategyId;
  symbol: (typeof coinSymbols)[number];
  startDate: string;
  endDate: string;
  startMs: number;
  endMs: number;
}

/** As validateBacktestRequest, for a walk-forward (the period must also give each out-of-sample part at least a day). */
export function validateWalkForwardRequest(request: unknown, nowMs: number): ValidatedWalkForwardRequest {
  const parsed = walkForwardRequestSchema.safeParse(request);
  if (!parsed.success) {
    failOnFirstIssue(parsed.error.issues);
  }
  const body = parsed.data;
  const { strategy } = validateStrategyParameters(body.strategyId, {});
  const { startMs, endMs } = validatePeriod(body.startDate, body.endDate, nowMs);
  const f = body.inSampleFraction;
  const oos = (endMs - startMs) / (body.windows + f / (1 - f));
  if (oos < DAY_MS) fail('windows', `too many windows for the period: each out-of-sample part must be at least a day`);
  return { ...body, strategyId: strategy.id as StrategyId, startDate: new Date(startMs).toISOString(), endDate: new Date(endMs).toISOString(), startMs, endMs };
}

export const walkForwardSegmentSchema = z.object({ start: z.string(), end: z.string(), figures: backtestFiguresSchema });
export const walkForwardWindowSchema = z.object({
  index: z.number().int(),
  inSample: walkForwardSegmentSchema.extend({
    /** The best parameter set in-sample by the objective. */
    parameters: z.record(z.string(), z.number()),
    /** Its objective's value in-sample (null: undefined for every set, e.g. no trades; the defaults are kept). */
    objectiveValue: z.number().nullable(),
    /** Sets tried. */
    setsTried: z.number().int(),
  }),
  outOfSample: walkForwardSegmentSchema.extend({ objectiveValue: z.number().nullable() }),
});
export type WalkForwardWindow = z.infer<typeof walkForwardWindowSchema>;

export const walkForwardReportSchema = z.object({
  strategyId: z.string(),
  symbol: z.enum(coinSymbols),
  objective: z.enum(walkForwardObjectives),
  windows: z.array(walkForwardWindowSchema),
  /**
   * The out-of-sample parts chained: each starts with the previous one's final balance (the first
   * with initialCapital), at most MAX_CURVE_POINTS points.
   */
  stitchedEquity: z.array(equityPointSchema),
  /** The in-sample figures averaged over the windows (totalTrades summed); what optimisation promised. */
  inSampleSummary: backtestFiguresSchema,
  /** The figures of the stitched out-of-sample run; what it delivered. */
  outOfSampleSummary: backtestFiguresSchema,
  /** Mean out-of-sample objective / mean in-sample objective (walk-forward efficiency); null when undefined. */
  efficiency: z.number().nullable(),
});
export type WalkForwardReport = z.infer<typeof walkForwardReportSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/backtest/{id}/compare-paper

export const comparisonKinds = [
  /** The backtest traded, the bot did not (it was off, had no signal, or skipped it: the explanation says which). */
  'missing-in-paper',
  /** The bot traded, the backtest did not (a manual trade, another strategy's signal, a position held from before). */
  'missing-in-backtest',
  /** Both traded on the same signal or exit, at another tick or price or amount. */
  'different-fill',
  /** The backtest traded; the bot's risk rule refused the same signal (BotSignalRefused: its rule and figures). */
  'refused-by-risk',
  /** The bot filled after its intended tick (a late bot): its `execution.delayMs`. */
  'late-fill',
] as const;
export type ComparisonKind = (typeof comparisonKinds)[number];

export const comparisonDifferenceSchema = z.object({
  kind: z.enum(comparisonKinds),
  backtestTrade: backtestTradeSchema.optional(),
  /** The paper trade in the same shape (from its SimulatedTradePlaced / PositionClosed). */
  paperTrade: backtestTradeSchema.optional(),
  /** In words: what differs and why. */
  explanation: z.string(),
});
export type ComparisonDifference = z.infer<typeof comparisonDifferenceSchema>;

export const comparePaperReportSchema = z.object({
  /** The period compared (the backtest's), ISO. */
  start: z.string(),
  end: z.string(),
  backtestTrades: z.number().int(),
  paperTrades: z.number().int(),
  /** Trades that agree: same side, signal or exit reason, tick, amount and price to the cent. */
  matched: z.number().int(),
  differences: z.array(comparisonDifferenceSchema),
  /** No differences. */
  agree: z.boolean(),
});
export type ComparePaperReport = z.infer<typeof comparePaperReportSchema>;
