/**
 * Response (and query) schemas of the trading slice's reads, served by query-api from the
 * `portfolios`, `trades` and `risk` read models (trading-view.ts) valued at live prices:
 *
 * - GET /api/portfolio             the signed-in user's paper portfolio; visitors get the house demo's (demo: true).
 * - GET /api/trades                one page of the user's trades (the demo's for visitors), newest first,
 *                                  filtered by coin, status, type and date range, plus the all-time summary.
 * - GET /api/risk                  the risk profile as bot settings, today's loss against the daily limit,
 *                                  portfolio risk, and the drawdown from the peak (whether it pauses entries).
 * - GET /api/risk/parameters       the risk profile as the risk parameter set (the defaults until changed).
 * - GET /api/risk/active-trades    premium: each open position with the stop and target it really has.
 * - GET /api/risk/alerts           premium: the alerts not yet cleared, newest first.
 * - GET /api/bot/decisions         the trading bot's recent refusals of BUY signals, with rule and figures.
 *
 * Money: events and read models hold integer micro-dollars (money.ts). Every dollar figure here is a
 * whole number of cents, converted once from the exact micros (half away from zero) and sent as
 * cents / 100; totals are added up from the rounded parts, so totalValue = cash + sum(marketValue)
 * to the cent, and totalPnl = realisedPnl + unrealisedPnl = the sum of the trades' pnl since the
 * opening or the last reset (see GET /api/trades). Prices (fills, entry, current, stop and target)
 * are sent unrounded, as the market said them or as averages of them; quantities exactly (8
 * decimals). Percentages are computed from the exact micro-dollars and rounded to 2 decimals (half
 * away from zero) only when sent.
 *
 * Lots (FIFO): every BUY is a lot. A SELL, and a stop loss or take profit close (which sell the whole
 * position), takes from the open lots oldest first; its realised P&L is its proceeds net of its fee
 * minus the cost (fees included) of what it took. A BUY whose lot is emptied is CLOSED; one partly
 * sold stays OPEN with its remainingQuantity, and its pnl covers only that remainder. Sells placed
 * before FIFO (lotRule AVERAGE_COST) took the same share of every lot's cost and left the BUYs OPEN
 * on their whole amount until the position closed.
 *
 * Daily P&L (one UTC day): dailyPnL = realised P&L since 00:00 UTC + unrealised P&L now - unrealised
 * P&L of the positions held at 00:00 UTC valued at that moment's prices. That is the change of the
 * portfolio's value since the day began (trades move value between cash and positions, they do not
 * create it), and dailyPnLPercent is it as a percent of the value at 00:00 UTC. A reset starts the
 * day over: the figures count from the reset. See trading-view.ts.
 */
import { z } from 'zod';
import { coinIds, coinIdSchema, coinSymbolSchema, coinSymbols } from '../market/coins';
import { signalCountsSchema } from '../signals/contracts';
import { listFormatParam } from '../shared/list-format';
import { alertSeverities, botDecisionSchema, botRules, botSettingsViewSchema, riskParametersSchema, stopLossTypes, tradeSides } from './contracts';
import { lotRules } from './portfolio';
import { exchangeIds } from '../exchanges/exchanges';
import { strategyIds, strategyTypes } from '../strategies/strategy-catalogue';
import { refusedSignalTypes, riskAlertKinds, riskAlertResolutions } from './risk';
import { addIssueAt } from '../shared/issues';

const usd = () => z.number().finite();
const price = () => z.number().positive().finite();
const percent = () => z.number().finite();
const quantity = () => z.number().nonnegative().finite();

// ---------------------------------------------------------------------------------------------
// GET /api/portfolio

export const portfolioPositionSchema = z.object({
  /** The id of the BUY that opened the position. */
  positionId: z.string(),
  symbol: z.enum(coinSymbols),
  coinId: z.enum(coinIds),
  quantity: quantity(),
  /** The open lots' fill prices weighted by their quantities, fees excluded. */
  averageEntryPrice: price(),
  /** The live price valued at (the average entry price when the market had none: priceKnown false). */
  price: price(),
  priceKnown: z.boolean(),
  /** What the quantity held cost, buying fees included: its lots' costs, each to the cent. */
  costBasis: usd(),
  /** Its lots' values at `price`, each to the cent. */
  marketValue: usd(),
  /** marketValue - costBasis: the sum of its open BUYs' pnl. */
  unrealisedPnl: usd(),
  /** The exact unrealised P&L as a percent of the exact cost basis. */
  unrealisedPnlPercent: percent(),
  openedAt: z.iso.datetime(),
});
export type PortfolioPosition = z.infer<typeof portfolioPositionSchema>;

export const latestPriceSchema = z.object({
  symbol: z.enum(coinSymbols),
  price: price(),
  change24h: z.number().finite().nullable(),
  changePercent24h: z.number().finite().nullable(),
});

export const portfolioResponseSchema = z.object({
  /** True for the house demo portfolio shown to visitors. */
  demo: z.boolean(),
  startingCash: usd(),
  /** cash + positionsValue, to the cent. */
  totalValue: usd(),
  cash: usd(),
  positionsValue: usd(),
  /** See the module comment: the change of value since 00:00 UTC (or since a reset today). */
  dailyPnL: usd(),
  /** dailyPnL as a percent of the value at 00:00 UTC. */
  dailyPnLPercent: percent(),
  /** Realised today (UTC), net of fees; part of dailyPnL. */
  realisedPnlToday: usd(),
  /**
   * realisedPnl + unrealisedPnl since the opening or the last reset: the sum of the pnl of the trades
   * placed since, to the cent. It is totalValue - startingCash, except that this is rounded to the cent
   * once and the trades each: the two may differ by at most half a cent per closing trade since the
   * last reset, per open BUY, and for the cash.
   */
  totalPnl: usd(),
  /** The exact total P&L as a percent of the starting cash. */
  totalPnlPercent: percent(),
  /** The pnl of the closing trades since the opening or the last reset, each rounded to the cent, summed. */
  realisedPnl: usd(),
  /** The pnl of the open BUYs (each lot valued and costed to the cent), summed. */
  unrealisedPnl: usd(),
  /** ETH held (coins). */
  ethHoldings: quantity(),
  /** ETH's live price and 24-hour change (the dashboard's market comparison). */
  latestPrice: latestPriceSchema,
  /** Every signal generated, all coins. */
  signalCounts: signalCountsSchema,
  /** Largest market value first. */
  positions: z.array(portfolioPositionSchema),
  /** Absent until an ML model exists. */
  mlStatus: z.object({ accuracy: z.number().finite() }).optional(),
  /** When the portfolio was valued (the server's clock), ISO-8601. */
  valuedAt: z.iso.datetime(),
});
export type PortfolioResponse = z.infer<typeof portfolioResponseSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/trades

export const tradeStatuses = ['OPEN', 'CLOSED'] as const;
export type TradeStatus = (typeof tradeStatuses)[number];
/** What ended an open BUY (SELL: a sell took its position to zero), or what a closing SELL was. */
export const tradeCloseReasons = ['SELL', 'STOP_LOSS', 'TAKE_PROFIT', 'RESET'] as const;
export type TradeCloseReason = (typeof tradeCloseReasons)[number];

export const TRADES_DEFAULT_PAGE_SIZE = 20;
export const TRADES_MAX_PAGE_SIZE = 100;

export const tradeSchema = z.object({
  id: z.string(),
  type: z.enum(tradeSides),
  symbol: z.enum(coinSymbols),
  coinId: z.enum(coinIds),
  /** Coins traded (the spec's `amount`); equal to quantity. */
  amount: quantity(),
  quantity: quantity(),
  /** The fill price, USD per coin. */
  price: price(),
  /** amount x price, to the cent. */
  value: usd(),
  /** BUY: its fill price; SELL / stop / target: the fill prices of the lots it took, weighted by what it took of each. */
  entryPrice: price(),
  fee: usd(),
  /**
   * SELL (and stop loss / take profit closes): the realised P&L, net of both fees. An OPEN BUY: the
   * unrealised P&L of what its lot still holds at the live price (remainingQuantity's value now - what
   * it cost, fee included; null without a price). A CLOSED BUY: null, because its P&L is on the SELLs
   * that took its lot. Summing pnl never counts a gain twice: the trades since the last reset add up to
   * the portfolio's realisedPnl + unrealisedPnl to the cent.
   */
  pnl: usd().nullable(),
  pnlRealised: z.boolean(),
  status: z.enum(tradeStatuses),
  /**
   * 'Manual', '<TYPE> signal' (a house signal, e.g. 'BUY signal'), '<strategy name> strategy' (a user
   * strategy's signal, e.g. 'RSI Mean Reversion strategy', the name the AI Strategies screen shows),
   * 'Stop loss' or 'Take profit'.
   */
  source: z.string(),
  /** The spec's name (premium-and-account.md section 3, the Signal Source column): source, null for a manual trade (shown as Manual). */
  signal: z.string().nullable(),
  /** The signal followed (SignalGenerated.data.signalId, or a strategy's StrategySignalGenerated.data.signalId), else null. */
  signalId: z.string().nullable(),
  /** The user's AI strategy whose signal the bot traded (issue 19), else null (house signals, manual trades, stop and target closes). */
  strategyId: z.enum(strategyIds).nullable().meta({ description: "The user's AI strategy whose signal the bot traded, else null" }),
  strategyType: z.enum(strategyTypes).nullable().meta({ description: 'That strategy\'s type (neural, technical, arbitrage), else null' }),
  /**
   * An arbitrage pair's leg (issue 19): the id both legs share (the BUY on the cheaper exchange, the
   * SELL of the same amount on the dearer one, at once), else null.
   */
  pairId: z.string().nullable().meta({ description: 'An arbitrage pair: the id its BUY and SELL legs share, else null' }),
  /** An arbitrage leg: the exchange it traded on (its fee is that exchange's), else null. */
  exchange: z.enum(exchangeIds).nullable().meta({ description: "An arbitrage leg: the exchange it traded on, at that exchange's fee; else null" }),
  /** Null while OPEN (and for manual or signal SELLs, closed when placed: 'SELL'). */
  closeReason: z.enum(tradeCloseReasons).nullable(),
  closedAt: z.iso.datetime().nullable(),
  /** When the trade was placed, ISO-8601. */
  timestamp: z.iso.datetime(),
  /** BUY: the coins its lot still holds (0 once CLOSED); SELL: null. */
  remainingQuantity: quantity().nullable(),
  /** BUY: the coins sales took from its lot (a reset discards the rest, it sells nothing); SELL: null. */
  soldQuantity: quantity().nullable(),
  /** SELL: how its cost was taken from the lots: FIFO, AVERAGE_COST for sells placed before FIFO, PAIR for an arbitrage pair's SELL leg (its own BUY leg's lot); BUY: null. */
  lotRule: z.enum(lotRules).nullable(),
  /** SELL under FIFO: the BUYs it took from, oldest first, with the coins taken and their fill price; else empty. */
  lots: z.array(z.object({ tradeId: z.string(), quantity: quantity(), entryPrice: price() })),
  /** A bot trade: the rule that decided it (its sizing rule, or SELL_SIGNAL), in words, with its figures; else null. */
  decision: botDecisionSchema.nullable(),
  /**
   * BUY: the exit plan it set for its position: PROFILE (the bot's: the levels follow the risk profile;
   * its decision names them at entry), MANUAL (the levels its person set, and their percents), NONE (no
   * automatic exit); null for SELLs and for BUYs stored before plans.
   */
  exits: z
    .object({
      kind: z.enum(['PROFILE', 'MANUAL', 'NONE']),
      stopLoss: price().nullable(),
      takeProfit: price().nullable(),
      stopLossPercent: z.number().finite().nullable(),
      takeProfitPercent: z.number().finite().nullable(),
    })
    .nullable(),
  /**
   * What the fill met (issue 17, domain/src/trading/engine/fills.ts): the market's price (`mid`), the
   * coin's half spread and the order's price impact it paid (fractions of the mid: 0.00005 is 0.5 bp),
   * when it filled (the tick's time), for a bot order when it was meant to fill and the delay, for a
   * stop loss or take profit close the level its tick crossed. Null for fills recorded before issue 17.
   */
  execution: z
    .object({
      mid: price(),
      halfSpread: z.number().nonnegative().finite(),
      impact: z.number().nonnegative().finite(),
      filledAt: z.iso.datetime(),
      intendedAt: z.iso.datetime().nullable(),
      delayMs: z.number().int().nullable(),
      level: price().nullable(),
    })
    .nullable(),
});
export type Trade = z.infer<typeof tradeSchema>;

/** All-time, over every trade of the user (not just the page or the filter): the Trade History cards. */
export const tradeSummarySchema = z.object({
  totalTrades: z.number().int().nonnegative(),
  buys: z.number().int().nonnegative(),
  sells: z.number().int().nonnegative(),
  /** Percent of the closing trades (SELLs, stops, targets) with a positive realised P&L; null until one has closed. */
  winRate: percent().nullable(),
  /** Sum of the pnl of every closing trade since the account opened (a reset does not erase trade history). */
  totalPnl: usd(),
  /** Mean of amount x price over every trade, USD. */
  avgTradeSize: usd(),
});
export type TradeSummary = z.infer<typeof tradeSummarySchema>;

export const tradesResponseSchema = z.object({
  demo: z.boolean(),
  /** How sales are allocated to the BUYs' lots: FIFO (first in, first out). */
  lotRule: z.enum(lotRules),
  trades: z.array(tradeSchema),
  /** Trades matching the filter. */
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  totalPages: z.number().int().nonnegative(),
  summary: tradeSummarySchema,
});
export type TradesResponse = z.infer<typeof tradesResponseSchema>;

// Every parameter is optional, so a value that is not a string is one given twice (an array).
const queryText = () => z.string({ error: 'must be given once' });
const positiveIntParam = (max: number | undefined) =>
  queryText()
    .regex(/^[1-9][0-9]{0,8}$/, max ? `must be a whole number from 1 to ${max}` : 'must be a whole number from 1')
    .transform(Number)
    .pipe(max ? z.number().max(max, `must be a whole number from 1 to ${max}`) : z.number());
/** Whether YYYY-MM-DD names a day of the calendar: it reads back the same (Date.UTC rolls 2026-02-30 over to March 2). */
function calendarDay(text: string): boolean {
  const day = text.slice(0, 10);
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10) === day;
}
/** An ISO-8601 date-time, or a date (YYYY-MM-DD, UTC): to epoch ms. */
const instantParam = queryText()
  .refine((s) => /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(s) && calendarDay(s) && Number.isFinite(Date.parse(s)), 'must be an ISO-8601 date (2026-03-04) or date-time')
  .transform((s) => ({ text: s, ms: Date.parse(s), dateOnly: !s.includes('T') }));

/**
 * GET /api/trades query: page (1-based), pageSize (1..TRADES_MAX_PAGE_SIZE), coin (a coinId) or
 * symbol (any case), status, type, from / to (inclusive; a bare date `to` includes that whole UTC day).
 */
export const tradesQuerySchema = z
  .strictObject({
    page: positiveIntParam(undefined).optional().meta({ description: 'The page, from 1 (default 1)' }),
    pageSize: positiveIntParam(TRADES_MAX_PAGE_SIZE)
      .optional()
      .meta({ description: `Trades per page, 1 to ${TRADES_MAX_PAGE_SIZE} (default ${TRADES_DEFAULT_PAGE_SIZE})` }),
    coinId: queryText().pipe(coinIdSchema).optional().meta({ description: `A coin id: ${coinIds.join(', ')}` }),
    symbol: queryText().pipe(coinSymbolSchema).optional().meta({ description: `A coin symbol, any case: ${coinSymbols.join(', ')}` }),
    status: queryText()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(tradeStatuses, { error: 'must be OPEN or CLOSED' }))
      .optional()
      .meta({ description: 'OPEN or CLOSED, any case' }),
    type: queryText()
      .transform((s) => s.toUpperCase())
      .pipe(z.enum(tradeSides, { error: 'must be BUY or SELL' }))
      .optional()
      .meta({ description: 'BUY or SELL, any case' }),
    from: instantParam.optional().meta({ description: 'From this ISO-8601 date (UTC) or date-time, inclusive' }),
    to: instantParam.optional().meta({ description: 'Up to this ISO-8601 date-time, inclusive; a bare date includes that whole UTC day' }),
    format: listFormatParam.meta({ description: 'json (default) or csv; CSV is also answered to Accept: text/csv' }),
  })
  .superRefine((q, ctx) => {
    if (q.coinId && q.symbol && coinSymbols[coinIds.indexOf(q.coinId)] !== q.symbol) {
      addIssueAt(ctx, ['symbol'], `does not match coinId ${q.coinId}`);
    }
    if (q.from && q.to && q.to.ms < q.from.ms) addIssueAt(ctx, ['to'], 'must not be before from');
  })
  .transform((q) => ({
    page: q.page ?? 1,
    pageSize: q.pageSize ?? TRADES_DEFAULT_PAGE_SIZE,
    symbol: q.symbol ?? (q.coinId ? coinSymbols[coinIds.indexOf(q.coinId)] : undefined),
    status: q.status,
    type: q.type,
    /** Epoch ms, inclusive. */
    fromMs: q.from?.ms,
    /** Epoch ms, exclusive. */
    toMs: q.to ? toBound(q.to) : undefined,
    format: q.format,
  }));
export type TradesQuery = z.input<typeof tradesQuerySchema>;

const DAY_MS = 86_400_000;
/** The exclusive upper bound of `to`: the next day's start for a bare date, else just past the instant. */
function toBound(to: { ms: number; dateOnly: boolean }): number {
  return to.dateOnly ? to.ms + DAY_MS : to.ms + 1;
}

// ---------------------------------------------------------------------------------------------
// GET /api/risk, /api/risk/parameters

export const riskResponseSchema = z.object({
  /** The risk profile as bot settings (the defaults until changed), under the domain's names and the spec's. */
  settings: botSettingsViewSchema,
  /** The same four figures flat, as the dashboard's risk card reads them (stopLossPercent is the profile's stopLossValue). */
  maxPositionSize: z.number().finite(),
  stopLossPercent: z.number().finite(),
  takeProfitPercent: z.number().finite(),
  dailyLossLimit: z.number().finite(),
  /** The profile's stop-loss type, and what stopLossPercent / takeProfitPercent measure under it. */
  stopLossType: z.enum(stopLossTypes),
  stopLossUnit: z.enum(['percent', 'atr', 'sigma']),
  /** The portfolio's dailyPnL (see GET /api/portfolio). */
  dailyPnL: usd(),
  /** max(0, -dailyPnL): today's loss, USD. */
  dailyLossUsed: usd(),
  /** |dailyPnL| / dailyLossLimit as a percent (the spec's bar: red above 80, amber above 50). */
  dailyLossUsedPercent: percent(),
  /** What the open positions would lose if every stop were hit, USD, and as a percent of totalValue. */
  portfolioRiskAmount: usd(),
  portfolioRiskPercent: percent(),
  openPositions: z.number().int().nonnegative(),
  /**
   * maxDrawdown: the value now against the portfolio's recorded peak (the starting cash, raised by the
   * risk monitor's peak records on ticks, reset with the portfolio). While `percent` is above
   * `maxDrawdown` the bot opens no new position (`entriesPaused`, and `reason` says so beside the bot status).
   */
  drawdown: z.object({
    peak: usd(),
    value: usd(),
    percent: percent(),
    maxDrawdown: z.number().finite(),
    entriesPaused: z.boolean(),
    reason: z.string().nullable(),
  }),
});
export type RiskResponse = z.infer<typeof riskResponseSchema>;

export const riskParametersResponseSchema = riskParametersSchema.extend({
  stopLossType: z.enum(stopLossTypes),
  /** False while the defaults are in force. */
  customised: z.boolean(),
});
export type RiskParametersResponse = z.infer<typeof riskParametersResponseSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/risk/active-trades (premium)

export const activeRiskTradeSchema = z.object({
  /** The position's id (the BUY that opened it). */
  id: z.string(),
  symbol: z.enum(coinSymbols),
  coinId: z.enum(coinIds),
  quantity: quantity(),
  /** Average entry price. */
  entryPrice: price(),
  currentPrice: price(),
  /**
   * The levels the position really has (stop-levels.ts): a bot position's follow the risk profile now
   * (from the average entry; a trailing stop from the highest complete candle since the entry), a manual
   * position's are those its person set; null: none (a manual position keeps no automatic exit).
   */
  stopLoss: z.number().finite().nullable(),
  takeProfit: z.number().finite().nullable(),
  /** PROFILE (the bot's), MANUAL, or NONE. */
  exitPlan: z.enum(['PROFILE', 'MANUAL', 'NONE']),
  /** The profile's stop-loss type for a PROFILE position; else null. */
  stopLossType: z.enum(stopLossTypes).nullable(),
  /** A trailing stop's reference: the highest price since the entry; else null. */
  highestSinceEntry: z.number().finite().nullable(),
  /** How the stop is set, in words (e.g. 'Trailing: 2% below the high since entry $3,210.00, target 2.5 x the stop's distance'). */
  stopRule: z.string(),
  /** What selling at the stop would lose against the cost basis (fees included), USD, at least 0; without a stop the whole cost basis. */
  riskAmount: usd(),
  /** riskAmount as a percent of the portfolio's totalValue. */
  riskPercentage: percent(),
  unrealizedPnL: usd(),
  /** Seconds since the position opened. */
  timeInTrade: z.number().int().nonnegative(),
});
export type ActiveRiskTrade = z.infer<typeof activeRiskTradeSchema>;
export const activeRiskTradesResponseSchema = z.object({ trades: z.array(activeRiskTradeSchema) });
export type ActiveRiskTradesResponse = z.infer<typeof activeRiskTradesResponseSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/risk/alerts (premium)

export const riskAlertViewSchema = z.object({
  id: z.string(),
  kind: z.enum(riskAlertKinds),
  severity: z.enum(alertSeverities),
  symbol: z.string().nullable(),
  message: z.string(),
  value: z.number().finite(),
  threshold: z.number().finite(),
  acknowledged: z.boolean(),
  acknowledgedAt: z.iso.datetime().nullable(),
  /** When it was raised, ISO-8601. */
  timestamp: z.iso.datetime(),
  /** Its condition was made moot (a portfolio reset): shown dimmed with the reason, needs no acknowledgement. */
  resolved: z.boolean(),
  resolvedAt: z.iso.datetime().nullable(),
  /** Why it was resolved: PORTFOLIO_RESET (the positions it was about were reset away); null while it stands. */
  resolution: z.enum(riskAlertResolutions).nullable(),
});
export type RiskAlertView = z.infer<typeof riskAlertViewSchema>;
export const riskAlertsResponseSchema = z.object({
  /** Newest first; cleared alerts are gone. */
  alerts: z.array(riskAlertViewSchema),
  /** Alerts neither acknowledged nor resolved. */
  unacknowledged: z.number().int().nonnegative(),
});
export type RiskAlertsResponse = z.infer<typeof riskAlertsResponseSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/bot/decisions

export const BOT_DECISIONS_KEPT = 50;

export const botRefusalSchema = z.object({
  /** The refusal's id (the trade id the bot would have used: one per signal and user). */
  id: z.string(),
  signalId: z.string(),
  symbol: z.enum(coinSymbols),
  /** BUY or SELL; ARBITRAGE: an arbitrage strategy's pair. */
  signalType: z.enum(refusedSignalTypes),
  /** The rule that refused the signal, in words, with its figures. */
  rule: z.enum(botRules),
  text: z.string(),
  figures: z.record(z.string(), z.number()),
  /** When the bot decided, ISO-8601. */
  timestamp: z.iso.datetime(),
});
export type BotRefusal = z.infer<typeof botRefusalSchema>;

export const botDecisionsResponseSchema = z.object({
  /** The last BOT_DECISIONS_KEPT refusals, newest first (the trades carry their own decision: GET /api/trades). */
  refusals: z.array(botRefusalSchema),
});
export type BotDecisionsResponse = z.infer<typeof botDecisionsResponseSchema>;
