/**
 * Request schemas of the trading slice (paper portfolio, bot, risk), and the bounds and defaults of
 * the bot settings and risk parameters. command-api validates with them, web/ imports them for its
 * inputs (min, max, step) and the risk decider enforces the same bounds, so the rules cannot drift.
 *
 * - POST /api/trades: a manual simulated trade, `{ coinId | symbol, type, amount }`, and for a BUY
 *   an optional stop loss and take profit in percent of the fill price (stopLossPercent,
 *   takeProfitPercent): a manual position has no automatic exit unless the person sets one.
 * - PUT /api/risk/parameters: the full risk parameter set (premium-and-account.md sections 5 and 9).
 * - POST /api/settings/bot: some or all of the bot settings, under the spec's names (stopLoss,
 *   takeProfit), returned under both the domain's (stopLossPercent, takeProfitPercent) and the spec's.
 *
 * One risk profile per user (issue 17; DESIGN.md section 9): the bot settings and the risk parameters
 * are two views of one `RiskProfile` (risk-profile.ts). Where both name a quantity they are one field:
 * maxPositionSize is maxPositionSize; the bot's stopLoss is stopLossValue (whatever the stop-loss type:
 * a percent for fixed and trailing stops, the multiple k for atr and volatility stops, see
 * stopLossUnits); the bot's takeProfit is stopLossValue x takeProfitRatio (the target as a multiple of
 * the stop's distance; a takeProfit sent sets the ratio); the bot's dailyLossLimit is maxDailyLoss.
 */
import { z } from 'zod';
import { coinIdSchema, coinSymbolSchema, coinSymbols, findCoinById, type CoinSymbol } from '../market/coins';
import { MAX_QUANTITY } from './money';
import { addIssueAt } from '../shared/issues';

export const tradeSides = ['BUY', 'SELL'] as const;
export const stopLossTypes = ['fixed', 'trailing', 'atr', 'volatility'] as const;
export type StopLossType = (typeof stopLossTypes)[number];
export const alertSeverities = ['low', 'medium', 'high', 'critical'] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

export interface NumberBounds {
  min: number;
  max: number;
  /** The input's step on the screen; the server checks bounds (and integers), not steps. */
  step: number;
  integer?: boolean;
}

/** premium-and-account.md section 5. */
export const riskParameterBounds = {
  maxPositionSize: { min: 0.1, max: 50, step: 0.1 },
  maxConcurrentTrades: { min: 1, max: 20, step: 1, integer: true },
  maxDailyLoss: { min: 50, max: 10000, step: 50 },
  maxDrawdown: { min: 5, max: 50, step: 1 },
  stopLossValue: { min: 0.5, max: 20, step: 0.1 },
  takeProfitRatio: { min: 1, max: 10, step: 0.1 },
  riskRewardRatio: { min: 0.5, max: 5, step: 0.1 },
  correlationLimit: { min: 0.1, max: 1, step: 0.1 },
  volatilityThreshold: { min: 10, max: 100, step: 5 },
} as const satisfies Record<string, NumberBounds>;

export interface RiskParameters {
  /** Percent of the portfolio. */
  maxPositionSize: number;
  maxConcurrentTrades: number;
  /** USD. */
  maxDailyLoss: number;
  /** Percent. */
  maxDrawdown: number;
  stopLossType: StopLossType;
  /** Percent. */
  stopLossValue: number;
  takeProfitRatio: number;
  riskRewardRatio: number;
  kellyCriterionEnabled: boolean;
  dynamicPositionSizing: boolean;
  correlationLimit: number;
  /** Percent. */
  volatilityThreshold: number;
}

/** premium-and-account.md section 9; the spec gives no default for the two switches: off. */
export const DEFAULT_RISK_PARAMETERS: Readonly<RiskParameters> = Object.freeze({
  maxPositionSize: 5,
  maxConcurrentTrades: 5,
  maxDailyLoss: 500,
  maxDrawdown: 15,
  stopLossType: 'fixed',
  stopLossValue: 2,
  // The spec gives two defaults that cannot both hold in one profile: the bot's take profit 5 % and a
  // take-profit ratio of 2 on the default 2 % stop (a 4 % target). 2.5 keeps the bot's 5 % (what the
  // dashboard's risk card shows everyone, and what the bot always traded by); with 2 the default
  // entry's reward/risk net of the fees (3.8 / 2.2 = 1.73) would fall below the default
  // riskRewardRatio of 2 and the bot would refuse every entry.
  takeProfitRatio: 2.5,
  riskRewardRatio: 2,
  kellyCriterionEnabled: false,
  dynamicPositionSizing: false,
  correlationLimit: 0.7,
  volatilityThreshold: 30,
});

/**
 * What stopLossValue measures for each stop-loss type (stop-levels.ts has the rules): a percent below
 * the entry (fixed) or below the highest price since the entry (trailing); the multiple k of the
 * coin's ATR14 of 5-minute candles (atr) or of its standard deviation of 5-minute returns over the
 * last 20 candles, in dollars at the entry (volatility).
 */
export const stopLossUnits = { fixed: 'percent', trailing: 'percent', atr: 'atr', volatility: 'sigma' } as const satisfies Record<StopLossType, string>;
export type StopLossUnit = (typeof stopLossUnits)[StopLossType];

/**
 * The one risk profile of a user (issue 17): the risk parameter set and the two bot switches. The
 * bot settings are a view of it (risk-profile.ts, botSettingsOf).
 */
export interface RiskProfile extends RiskParameters {
  enableNotifications: boolean;
  autoRetrain: boolean;
}

export const DEFAULT_RISK_PROFILE: Readonly<RiskProfile> = Object.freeze({ ...DEFAULT_RISK_PARAMETERS, enableNotifications: true, autoRetrain: true });

/**
 * The spec gives bot settings defaults (section 9) but no bounds; these reuse the bounds of the
 * matching risk parameters (position size, stop loss, daily loss), and take profit may go to 100 percent.
 */
export const botSettingsBounds = {
  maxPositionSize: riskParameterBounds.maxPositionSize,
  stopLossPercent: riskParameterBounds.stopLossValue,
  takeProfitPercent: { min: 0.5, max: 100, step: 0.1 },
  dailyLossLimit: riskParameterBounds.maxDailyLoss,
} as const satisfies Record<string, NumberBounds>;

export interface BotSettings {
  /** Percent of the portfolio's value one bot trade may use. */
  maxPositionSize: number;
  stopLossPercent: number;
  takeProfitPercent: number;
  /** USD of realised loss in one UTC day after which the bot opens nothing more that day. */
  dailyLossLimit: number;
  enableNotifications: boolean;
  autoRetrain: boolean;
}

/** The default profile seen as bot settings: 5 %, 2 %, 5 % (2 x 2.5), $500 (section 9). */
export const DEFAULT_BOT_SETTINGS: Readonly<BotSettings> = Object.freeze({
  maxPositionSize: DEFAULT_RISK_PROFILE.maxPositionSize,
  stopLossPercent: DEFAULT_RISK_PROFILE.stopLossValue,
  takeProfitPercent: DEFAULT_RISK_PROFILE.stopLossValue * DEFAULT_RISK_PROFILE.takeProfitRatio,
  dailyLossLimit: DEFAULT_RISK_PROFILE.maxDailyLoss,
  enableNotifications: DEFAULT_RISK_PROFILE.enableNotifications,
  autoRetrain: DEFAULT_RISK_PROFILE.autoRetrain,
});

/** The optional exits of a manual BUY, in percent of its fill price. */
export const manualExitBounds = {
  stopLossPercent: { min: 0.1, max: 50, step: 0.1 },
  takeProfitPercent: { min: 0.1, max: 500, step: 0.1 },
} as const satisfies Record<string, NumberBounds>;

/**
 * The rules a bot decision names (bot-trade-decision.ts): the one that placed a trade (its sizing rule,
 * SELL_SIGNAL, or ARBITRAGE_PAIR for an arbitrage strategy's pair: engine/arbitrage-pair.ts) or the one
 * that refused it.
 */
export const botRules = [
  'SELL_SIGNAL',
  'FIXED_SIZE',
  'KELLY_SIZE',
  'DYNAMIC_SIZE',
  'ARBITRAGE_PAIR',
  'DAILY_LOSS_LIMIT',
  'MAX_DRAWDOWN',
  'POSITION_ALREADY_OPEN',
  'MAX_CONCURRENT_TRADES',
  'VOLATILITY_THRESHOLD',
  'CORRELATION_LIMIT',
  'REWARD_RISK',
  'KELLY_NO_EDGE',
  'TOO_SMALL',
  'MARKET_DATA_UNAVAILABLE',
] as const;
export type BotRule = (typeof botRules)[number];

/** What decided a bot's trade or refusal: the rule, a sentence a person reads, and its figures. */
export const botDecisionSchema = z.object({
  rule: z.enum(botRules),
  /** e.g. 'refused: correlation 0.83 with BTC above 0.70'. */
  text: z.string(),
  /** The figures the text states, by name (percents as percents, prices and dollars in USD). */
  figures: z.record(z.string(), z.number()),
});
export type BotDecision = z.infer<typeof botDecisionSchema>;

/** The message a bound breaks, as the API and the decider word it. */
export function boundsMessage(bounds: NumberBounds): string {
  return bounds.integer ? `must be a whole number from ${bounds.min} to ${bounds.max}` : `must be a number from ${bounds.min} to ${bounds.max}`;
}

function bounded(bounds: NumberBounds) {
  const message = boundsMessage(bounds);
  const base = z.number({ error: message }).min(bounds.min, message).max(bounds.max, message);
  return bounds.integer ? base.int(message) : base;
}

const flag = () => z.boolean({ error: 'must be true or false' });

export const riskParametersSchema = z.strictObject({
  maxPositionSize: bounded(riskParameterBounds.maxPositionSize),
  maxConcurrentTrades: bounded(riskParameterBounds.maxConcurrentTrades),
  maxDailyLoss: bounded(riskParameterBounds.maxDailyLoss),
  maxDrawdown: bounded(riskParameterBounds.maxDrawdown),
  stopLossType: z.enum(stopLossTypes, { error: `must be one of ${stopLossTypes.join(', ')}` }),
  stopLossValue: bounded(riskParameterBounds.stopLossValue),
  takeProfitRatio: bounded(riskParameterBounds.takeProfitRatio),
  riskRewardRatio: bounded(riskParameterBounds.riskRewardRatio),
  kellyCriterionEnabled: flag(),
  dynamicPositionSizing: flag(),
  correlationLimit: bounded(riskParameterBounds.correlationLimit),
  volatilityThreshold: bounded(riskParameterBounds.volatilityThreshold),
}) satisfies z.ZodType<RiskParameters>;
export type RiskParametersRequest = z.input<typeof riskParametersSchema>;

/** POST /api/settings/bot: any of the settings (at least one), under the spec's field names. */
export const botSettingsRequestSchema = z
  .strictObject({
    maxPositionSize: bounded(botSettingsBounds.maxPositionSize).optional(),
    stopLoss: bounded(botSettingsBounds.stopLossPercent).optional(),
    takeProfit: bounded(botSettingsBounds.takeProfitPercent).optional(),
    dailyLossLimit: bounded(botSettingsBounds.dailyLossLimit).optional(),
    enableNotifications: flag().optional(),
    autoRetrain: flag().optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), { message: 'at least one setting is required' })
  .transform(({ stopLoss, takeProfit, ...rest }): Partial<BotSettings> => {
    const changes: Partial<BotSettings> = {};
    for (const [key, value] of Object.entries({ ...rest, stopLossPercent: stopLoss, takeProfitPercent: takeProfit })) {
      if (value !== undefined) Object.assign(changes, { [key]: value });
    }
    return changes;
  });
export type BotSettingsRequest = z.input<typeof botSettingsRequestSchema>;

/**
 * POST /api/trades: a manual paper trade of `amount` coins (a coin id or a symbol; both only if they
 * agree). A BUY may set a stop loss and a take profit, in percent below and above its fill price (the
 * fill price is the market's when the trade is decided, so a percent is what a person can choose); a
 * SELL may not (it opens nothing).
 */
export const placeTradeRequestSchema = z
  .strictObject({
    coinId: coinIdSchema.optional().meta({ description: 'The coin, by id (or give symbol)' }),
    symbol: coinSymbolSchema.optional().meta({ description: `The coin, by symbol in any case: ${coinSymbols.join(', ')} (or give coinId)` }),
    type: z.enum(tradeSides, { error: 'must be BUY or SELL' }).meta({ description: 'BUY or SELL' }),
    amount: z
      .number({ error: 'must be a positive number of coins' })
      .positive('must be a positive number of coins')
      .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`),
    stopLossPercent: bounded(manualExitBounds.stopLossPercent).optional().meta({ description: 'BUY only: close the position when the price falls this many percent below the fill price' }),
    takeProfitPercent: bounded(manualExitBounds.takeProfitPercent).optional().meta({ description: 'BUY only: close the position when the price rises this many percent above the fill price' }),
  })
  .superRefine((body, ctx) => {
    if (body.coinId === undefined && body.symbol === undefined) addIssueAt(ctx, ['symbol'], 'a coinId or a symbol is required');
    else if (body.coinId !== undefined && body.symbol !== undefined && findCoinById(body.coinId)?.symbol !== body.symbol) {
      addIssueAt(ctx, ['symbol'], `does not match coinId ${body.coinId}`);
    }
    if (body.type === 'SELL') {
      for (const field of ['stopLossPercent', 'takeProfitPercent'] as const) {
        if (body[field] !== undefined) addIssueAt(ctx, [field], 'applies to a BUY only (a SELL opens no position)');
      }
    }
  })
  .transform(
    (body): { symbol: CoinSymbol; side: (typeof tradeSides)[number]; amount: number; stopLossPercent?: number; takeProfitPercent?: number } => ({
      symbol: body.symbol ?? findCoinById(body.coinId!)!.symbol,
      side: body.type,
      amount: body.amount,
      ...(body.stopLossPercent !== undefined ? { stopLossPercent: body.stopLossPercent } : {}),
      ...(body.takeProfitPercent !== undefined ? { takeProfitPercent: body.takeProfitPercent } : {}),
    }),
  );
export type PlaceTradeRequest = z.input<typeof placeTradeRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Answers of the commands: ids and the global position of the last event appended (null when the
// command changed nothing), never a read model.

const position = z.string().nullable();

/** POST /api/trades (201): the trade as filled. */
export const placeTradeResponseSchema = z.object({
  id: z.string(),
  coinId: coinIdSchema,
  symbol: z.string(),
  type: z.enum(tradeSides),
  /** Coins traded. */
  amount: z.number(),
  /** The fill price (the market's at the time, never the client's). */
  price: z.number(),
  fee: z.number(),
  /** What the trade moved in cash: a BUY paid notional + fee, a SELL received notional - fee. */
  total: z.number(),
  realisedPnl: z.number().nullable(),
  status: z.enum(['OPEN', 'CLOSED']),
  source: z.string(),
  /** A BUY's stop loss and take profit price levels, from the percents sent and the fill price; null when none was set. */
  stopLoss: z.number().nullable(),
  takeProfit: z.number().nullable(),
  timestamp: z.iso.datetime(),
  position,
});
export type PlaceTradeResponse = z.infer<typeof placeTradeResponseSchema>;

/** POST /api/bot/start, /stop, /reset. */
export const botCommandResponseSchema = z.object({ userId: z.string(), position });
export type BotCommandResponse = z.infer<typeof botCommandResponseSchema>;

/**
 * The bot settings as answers show them: the domain's names and the spec's (premium-and-account.md
 * section 3, Bot settings: stopLoss and takeProfit, the same values as stopLossPercent and
 * takeProfitPercent), with the profile's stop-loss type and what the stop figures measure: percents
 * for fixed and trailing stops, multiples of ATR14 or of sigma for atr and volatility stops.
 */
export const botSettingsViewSchema = z.object({
  maxPositionSize: z.number(),
  /** The profile's stopLossValue. */
  stopLossPercent: z.number(),
  /** stopLossValue x takeProfitRatio, rounded to 2 decimals (in the stop's unit). */
  takeProfitPercent: z.number(),
  /** The spec's name for stopLossPercent. */
  stopLoss: z.number(),
  /** The spec's name for takeProfitPercent. */
  takeProfit: z.number(),
  /** The profile's maxDailyLoss. */
  dailyLossLimit: z.number(),
  enableNotifications: z.boolean(),
  autoRetrain: z.boolean(),
  stopLossType: z.enum(stopLossTypes),
  /** What stopLoss and takeProfit measure: percent (fixed, trailing), atr or sigma multiples (atr, volatility). */
  stopLossUnit: z.enum(['percent', 'atr', 'sigma']),
}) satisfies z.ZodType<BotSettings>;
export type BotSettingsView = z.infer<typeof botSettingsViewSchema>;

export function botSettingsView(settings: BotSettings, stopLossType: StopLossType): BotSettingsView {
  return { ...settings, stopLoss: settings.stopLossPercent, takeProfit: settings.takeProfitPercent, stopLossType, stopLossUnit: stopLossUnits[stopLossType] };
}

/** POST /api/settings/bot: the whole set as it now is. */
export const botSettingsResponseSchema = z.object({
  userId: z.string(),
  settings: botSettingsViewSchema,
  position,
});
export type BotSettingsResponse = z.infer<typeof botSettingsResponseSchema>;

/** PUT /api/risk/parameters. */
export const riskParametersChangeResponseSchema = z.object({ userId: z.string(), parameters: riskParametersSchema, position });
export type RiskParametersChangeResponse = z.infer<typeof riskParametersChangeResponseSchema>;

/** POST /api/risk/alerts/{id}/acknowledge. */
export const acknowledgeAlertResponseSchema = z.object({ alertId: z.string(), position });
export type AcknowledgeAlertResponse = z.infer<typeof acknowledgeAlertResponseSchema>;

/** DELETE /api/risk/alerts/acknowledged: the alerts cleared. */
export const clearAlertsResponseSchema = z.object({ alertIds: z.array(z.string()), position });
export type ClearAlertsResponse = z.infer<typeof clearAlertsResponseSchema>;
