/**
 * The backtest service's answers (issue 18), beside the engine's contracts (contracts.ts): what POST
 * /api/backtest/run and /walk-forward answer (202, the queued job), GET /api/backtest/{id} (a run's
 * status and its result or walk-forward report), GET /api/backtest/{id}/trades (a page of its
 * trades) and the query and path schemas of those reads. Zod only, like contracts.ts: the web may
 * import it.
 */
import { z } from 'zod';
import { commandPositionSchema } from '../api/shared';
import { coinSymbols } from '../market/coins';
import { backtestResultSchema, backtestStatuses, backtestTradeSchema, walkForwardObjectives, walkForwardReportSchema } from './contracts';

export const backtestModes = ['backtest', 'walk-forward'] as const;

/** 202 of POST /api/backtest/run and /api/backtest/walk-forward. */
export const backtestJobResponseSchema = z.object({
  /** The backtest's id: GET /api/backtest/{id}. */
  id: z.string(),
  /** The long job that runs it: JOB_PROGRESS messages on the socket name it. */
  jobId: z.string(),
  mode: z.enum(backtestModes),
  status: z.literal('QUEUED'),
  /** Its place among the queued backtests and walk-forwards of every user (1 = next). */
  queuePosition: z.number().int().min(1),
  position: commandPositionSchema,
});
export type BacktestJobResponse = z.infer<typeof backtestJobResponseSchema>;

export const backtestConfigSchema = z.object({
  strategyId: z.string(),
  symbol: z.enum(coinSymbols),
  /** ISO: start inclusive, end exclusive. */
  startDate: z.string(),
  endDate: z.string(),
  initialCapital: z.number(),
  /** Every parameter of the strategy (the defaults for those not sent); a walk-forward chooses its own per window. */
  parameters: z.record(z.string(), z.number()).optional(),
  windows: z.number().int().optional(),
  inSampleFraction: z.number().optional(),
  objective: z.enum(walkForwardObjectives).optional(),
  parameterSets: z.number().int().optional(),
});

/** GET /api/backtest/{id}. */
export const backtestDetailSchema = z.object({
  id: z.string(),
  mode: z.enum(backtestModes),
  status: z.enum(backtestStatuses),
  /** Its place in the queue while QUEUED (1 = next), else null. */
  queuePosition: z.number().int().nullable(),
  jobId: z.string(),
  configId: z.string(),
  config: backtestConfigSchema,
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  /** FAILED: why, in words. */
  error: z.string().nullable(),
  /** A completed backtest's figures and curves (mode 'backtest'). */
  result: backtestResultSchema.nullable(),
  /** A completed walk-forward's report (mode 'walk-forward'). */
  report: walkForwardReportSchema.nullable(),
  /** A completed backtest's fills: GET /api/backtest/{id}/trades pages them. */
  tradeCount: z.number().int().nullable(),
});
export type BacktestDetail = z.infer<typeof backtestDetailSchema>;

export const MAX_TRADES_PAGE_SIZE = 500;
export const DEFAULT_TRADES_PAGE_SIZE = 50;

const wholeQuery = (name: string, min: number, max: number, def: number) =>
  z
    .string(`${name} must be a whole number`)
    .regex(/^\d{1,9}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be from ${min} to ${max}`).max(max, `${name} must be from ${min} to ${max}`))
    .optional()
    .transform((v) => v ?? def);

export const backtestTradesQuerySchema = z.strictObject({
  page: wholeQuery('page', 1, 1_000_000, 1),
  pageSize: wholeQuery('pageSize', 1, MAX_TRADES_PAGE_SIZE, DEFAULT_TRADES_PAGE_SIZE),
});
export type BacktestTradesQuery = z.output<typeof backtestTradesQuerySchema>;

/** GET /api/backtest/{id}/trades: the fills in time order, a page at a time (page 1 first). */
export const backtestTradesPageSchema = z.object({
  id: z.string(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Fills in all. */
  total: z.number().int(),
  pages: z.number().int(),
  trades: z.array(backtestTradeSchema),
});
export type BacktestTradesPage = z.infer<typeof backtestTradesPageSchema>;

/** A backtest id in a path: a UUID (anything else is a 404, as an unknown id). */
export const backtestIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a backtest id');

/**
 * BACKTEST_UPDATE on the socket, to the run's owner, once the `backtests` read model holds the change
 * (so GET /api/backtest/{id} read on it finds it): QUEUED when asked, COMPLETED or FAILED when it ended.
 * Progress while it runs is JOB_PROGRESS (realtime/contracts.ts), named by `jobId`.
 */
export const backtestUpdateSchema = z.object({
  id: z.string(),
  jobId: z.string(),
  mode: z.enum(backtestModes),
  status: z.enum(['QUEUED', 'COMPLETED', 'FAILED']),
  error: z.string().nullable(),
});
export type BacktestUpdate = z.infer<typeof backtestUpdateSchema>;
