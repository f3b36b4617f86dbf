/**
 * The strategies slice's HTTP contracts (issue 19; spec premium-and-account.md sections 3, 5 and 7).
 * web/ imports them. Every endpoint is Premium (403 'Premium subscription required' otherwise).
 *
 * - GET /api/strategies: the caller's three strategies (strategy-catalogue.ts) with their configuration
 *   and the figures measured from their own round trips (strategy-figures.ts): paper since activation,
 *   or, with fewer than 20 paper round trips, the latest backtest of the strategy when it has one.
 *   `figuresSource` says which and `sampleSize` how many round trips; the ratios are null below 20.
 * - GET /api/strategies/signals: the live signals of the caller's active strategies, newest first.
 * - POST /api/strategies/{id}/toggle {active}; POST /api/strategies/{id}/configure (the type's full
 *   configuration, each field within its bounds: a 400 names the field; missing fields take the
 *   defaults, as the spec's form does).
 * - GET /api/strategies/{id}/performance: {summary, performance: [{date, cumulativeReturn}]}.
 * - POST /api/strategies/{id}/backtest {startDate, endDate, initialCapital}: a backtest job.
 */
import { z } from 'zod';
import { commandPositionSchema } from '../api/shared';
import { configurationSchemas, strategyIds, strategyTypes, type StrategyType } from './strategy-catalogue';

export { strategyIdSchema } from './strategy-catalogue';

export const toggleStrategyRequestSchema = z.strictObject({ active: z.boolean('active must be true or false') });
export type ToggleStrategyRequest = z.infer<typeof toggleStrategyRequestSchema>;

/** The configure body of a strategy of `type`: its fields with bounds, defaults for the missing. */
export const configureStrategyRequestSchema = (type: StrategyType) => configurationSchemas[type];

export const strategyCommandResponseSchema = z.object({ strategyId: z.enum(strategyIds), active: z.boolean(), position: commandPositionSchema });
export type StrategyCommandResponse = z.infer<typeof strategyCommandResponseSchema>;

const nullableNumber = z.number().nullable();

export const figuresSourceSchema = z.enum(['paper', 'backtest', 'none']);

export const strategySchema = z.object({
  id: z.enum(strategyIds),
  name: z.string(),
  description: z.string(),
  type: z.enum(strategyTypes),
  active: z.boolean(),
  activatedAt: z.string().nullable(),
  /** Percent of round trips right before fees; null below 20 round trips. */
  accuracy: nullableNumber,
  profitFactor: nullableNumber,
  /** Per-trade, not annualised. */
  sharpeRatio: nullableNumber,
  /** Percent after fees. */
  winRate: nullableNumber,
  /** Percent, positive. */
  maxDrawdown: nullableNumber,
  totalReturn: z.number(),
  /** Where the figures come from: the paper round trips since activation, the latest backtest, or nothing yet. */
  figuresSource: figuresSourceSchema,
  /** Round trips the figures measure. */
  sampleSize: z.number(),
  /** 'not enough trades' when the figures are null. */
  figuresNote: z.string().nullable(),
  configuration: z.record(z.string(), z.number()),
  defaults: z.record(z.string(), z.number()),
  /** Each field's bounds, for the Configure dialog. */
  bounds: z.record(z.string(), z.object({ min: z.number(), max: z.number(), integer: z.boolean() })),
});
export type Strategy = z.infer<typeof strategySchema>;

export const strategiesResponseSchema = z.object({ strategies: z.array(strategySchema) });
export type StrategiesResponse = z.infer<typeof strategiesResponseSchema>;

export const strategySignalResponseSchema = z.object({
  id: z.string(),
  strategyId: z.enum(strategyIds),
  strategyName: z.string(),
  symbol: z.string(),
  type: z.enum(['BUY', 'SELL', 'ARBITRAGE']),
  description: z.string(),
  reasons: z.array(z.string()),
  price: z.number(),
  confidence: z.number(),
  candleTime: z.string(),
  /** The round trip the signal closed (percent after fees), if any. */
  netReturn: z.number().nullable(),
});
export type StrategySignalResponse = z.infer<typeof strategySignalResponseSchema>;
export const strategySignalsResponseSchema = z.object({ signals: z.array(strategySignalResponseSchema) });
export type StrategySignalsResponse = z.infer<typeof strategySignalsResponseSchema>;

export const strategyPerformanceResponseSchema = z.object({
  summary: z.object({ totalReturn: z.number(), totalTrades: z.number(), winRate: nullableNumber, sharpeRatio: nullableNumber }),
  performance: z.array(z.object({ date: z.string(), cumulativeReturn: z.number() })),
  source: figuresSourceSchema,
});
export type StrategyPerformanceResponse = z.infer<typeof strategyPerformanceResponseSchema>;

const isoDay = (name: string) =>
  z
    .string(`${name} must be a date YYYY-MM-DD`)
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date YYYY-MM-DD`)
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00.000Z`)) && new Date(`${s}T00:00:00.000Z`).toISOString().startsWith(s), `${name} must be a real date`);

export const MIN_BACKTEST_CAPITAL = 100;
export const MAX_BACKTEST_CAPITAL = 10_000_000;

export const strategyBacktestRequestSchema = z
  .strictObject({
    startDate: isoDay('startDate'),
    endDate: isoDay('endDate'),
    initialCapital: z
      .number(`initialCapital must be a number from ${MIN_BACKTEST_CAPITAL} to ${MAX_BACKTEST_CAPITAL}`)
      .min(MIN_BACKTEST_CAPITAL, `initialCapital must be from ${MIN_BACKTEST_CAPITAL} to ${MAX_BACKTEST_CAPITAL}`)
      .max(MAX_BACKTEST_CAPITAL, `initialCapital must be from ${MIN_BACKTEST_CAPITAL} to ${MAX_BACKTEST_CAPITAL}`),
  })
  .refine((b) => b.startDate < b.endDate, { path: ['endDate'], message: 'endDate must be after startDate' });
export type StrategyBacktestRequest = z.infer<typeof strategyBacktestRequestSchema>;

/** The spec's dialog defaults (section 9). */
export const BACKTEST_DIALOG_DEFAULTS: StrategyBacktestRequest = { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 };

/** POST /api/strategies/{id}/backtest's answer (202): the backtest job queued (its result: GET /api/backtest/{backtestId}). */
export const strategyBacktestResponseSchema = z.object({
  strategyId: z.enum(strategyIds),
  backtestId: z.string(),
  jobId: z.string(),
  status: z.literal('QUEUED'),
  queuePosition: z.number(),
  position: commandPositionSchema,
});
export type StrategyBacktestResponse = z.infer<typeof strategyBacktestResponseSchema>;
