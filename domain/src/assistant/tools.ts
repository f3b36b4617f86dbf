/**
 * The assistant's look-ups as a small registry of typed tools (issue 20): each has a name, a
 * description and a zod input here, and a result made of facts (facts.ts). query-api implements each
 * one over the caller's read models (query-api/src/assistant/assistant-tools.ts); the grounded
 * assistant dispatches to them by intent, and the OpenAI-compatible adapter offers the same list as
 * function-calling tools (their JSON Schemas come from these inputs).
 *
 * The builders below turn a read's response (the same objects GET /api/portfolio, /api/trades, ...
 * answer) into a tool's result, so a figure in an answer is the figure on the screen it links to.
 *
 * `my_backtests` (issue 18) reads the caller's backtest history (GET /api/backtest/history's rows). Not
 * here yet: `what_if_backtest` (a spec here, an implementation in assistant-tools.ts, an entry in the
 * registry); the grounded assistant says the what-if runner is not available until then (answers.ts).
 */
import { z } from 'zod';
import { coinSymbols, type CoinSymbol } from '../market/coins';
import type { CoinPriceResponse } from '../market/contracts';
import type { BacktestFigures, BacktestHistoryItem } from '../backtest/contracts';
import type { MlStatusResponse } from '../ml/contracts';
import type { IndicatorsResponse, Signal, SignalCounts } from '../signals/contracts';
import { RSI_OVERBOUGHT, RSI_OVERSOLD } from '../signals/signal-rules';
import type { SubscriptionResponse } from '../subscription/contracts';
import { stopLossUnits, type BotDecision, type RiskProfile, type StopLossType } from '../trading/contracts';
import type { ActiveRiskTrade, BotRefusal, PortfolioResponse, RiskAlertView, RiskAlertsResponse, RiskParametersResponse, RiskResponse, Trade, TradeSummary } from '../trading/read-contracts';
import type { Fact } from './contracts';
import { facts, screens, type Where } from './facts';
import { explainTerm, glossaryTerms, type TermFacts } from './glossary';
import { WHAT_IF_DEFAULT_DAYS, WHAT_IF_MAX_DAYS, whatIfBounds, type WhatIfSetting } from './what-if';
import { addIssueAt } from '../shared/issues';

// ---------------------------------------------------------------------------------------------
// Inputs

const symbolInput = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(coinSymbols, { error: `must be one of ${coinSymbols.join(', ')}` }))
  .meta({ description: `A coin symbol: ${coinSymbols.join(', ')}` });
const limitInput = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).meta({ description: `How many, 1 to ${max} (default ${fallback})` });
const none = z.strictObject({});

export const toolInputs = {
  get_profile: none,
  get_portfolio: none,
  get_positions: z.strictObject({ symbol: symbolInput.optional() }),
  get_trades: z.strictObject({
    limit: limitInput(10, 5),
    symbol: symbolInput.optional(),
    type: z.enum(['BUY', 'SELL']).optional().meta({ description: 'BUY or SELL only' }),
  }),
  get_trade_summary: none,
  get_bot_refusals: z.strictObject({ limit: limitInput(10, 3), symbol: symbolInput.optional() }),
  get_bot_status: none,
  get_signal: z.strictObject({ symbol: symbolInput.default('ETH') }),
  get_indicators: z.strictObject({ symbol: symbolInput.default('ETH') }),
  get_price: z.strictObject({ symbol: symbolInput.default('ETH') }),
  get_risk_profile: none,
  get_risk_status: none,
  get_alerts: none,
  get_subscription: none,
  get_model_status: none,
  explain_term: z.strictObject({ term: z.enum(glossaryTerms).meta({ description: 'The term to explain' }) }),
  my_backtests: z.strictObject({ limit: limitInput(10, 3) }),
  what_if_backtest: z
    .strictObject({
      setting: z.enum(['stopLoss', 'takeProfit', 'maxPositionSize']).meta({ description: 'The risk setting to change: stopLoss, takeProfit or maxPositionSize' }),
      value: z.number().meta({ description: 'Its value in percent (stop loss 0.5-20, take profit 0.5-100, position size 0.1-50)' }),
      symbol: symbolInput.default('ETH'),
      days: z.number().int().min(1).max(WHAT_IF_MAX_DAYS).default(WHAT_IF_DEFAULT_DAYS).meta({ description: `The period: the last N days, 1 to ${WHAT_IF_MAX_DAYS} (default ${WHAT_IF_DEFAULT_DAYS})` }),
    })
    .superRefine((input, ctx) => {
      const { min, max } = whatIfBounds[input.setting];
      if (!(input.value >= min && input.value <= max)) addIssueAt(ctx, ['value'], `${input.setting} must be between ${min} and ${max} percent`);
    }),
} as const;

export type ToolName = keyof typeof toolInputs;
export const toolNames = Object.keys(toolInputs) as ToolName[];
export type ToolInput<N extends ToolName> = z.input<(typeof toolInputs)[N]>;
export type ParsedToolInput<N extends ToolName> = z.output<(typeof toolInputs)[N]>;

/** What a language model is told each tool does. */
export const toolDescriptions: Readonly<Record<ToolName, string>> = {
  get_profile: "The user's own first name, username and plan tier.",
  get_portfolio: "The user's paper portfolio now: total value, cash, positions value, P&L today (since 00:00 UTC) and overall (since the start or the last reset).",
  get_positions: "The user's open positions: quantity, average entry, price now, unrealised P&L, and the stop loss and take profit each really has.",
  get_trades: "The user's most recent trades (newest first) with why each happened: the bot's rule and its figures, the signal followed, or a manual order's exits.",
  get_trade_summary: "The user's all-time trade statistics: trades, buys, sells, win rate, realised P&L, average trade size.",
  get_bot_refusals: 'The BUY signals the trading bot recently refused for the user, with the risk rule that refused each.',
  get_bot_status: "Whether the user's trading bot is running, and whether its entries are paused by the drawdown rule.",
  get_signal: "The latest AI signal of a coin (BUY, SELL or HOLD) with its confidence and each indicator's reason.",
  get_indicators: "A coin's latest technical indicators on 5-minute candles: RSI, MACD and its signal line, SMA20, SMA50, EMA20, volume level.",
  get_price: "A coin's price now and its 24-hour change.",
  get_risk_profile: "The user's risk profile: max position size, stop-loss type and value, take-profit ratio, daily loss limit, max drawdown, and the other rules.",
  get_risk_status: "The user's risk now: today's loss against the daily limit, the drawdown from the peak, what the open positions would lose at their stops.",
  get_alerts: "The user's risk alerts not yet cleared, with severity, message and whether acknowledged.",
  get_subscription: "The user's subscription: plan, status, price, and the end date if cancelled.",
  get_model_status: "The AI model the user's signals are measured with: held-out accuracy beside the majority baseline, the 95% interval and the verdict.",
  what_if_backtest:
    "Runs the backtester twice over the last N days on one coin, following the house signals as the user's paper bot does, with the user's risk profile as it is and with one setting changed (stop loss, take profit or position size, in percent), and returns both runs' return, final balance, closed trades, win rate and maximum drawdown.",
  my_backtests: "The user's most recent backtests and walk-forward runs (newest first): strategy, coin, period, status, and once completed the closed trades, win rate and total return.",
  explain_term: "This product's definition of a trading term (RSI, MACD, moving averages, each stop-loss type, Kelly sizing, drawdown, Sharpe, profit factor, walk-forward, and more), with the constants it uses.",
};

// ---------------------------------------------------------------------------------------------
// Results

export interface ProfileResult {
  name: Fact;
  username: Fact;
  tier: Fact;
}

export interface PortfolioResult {
  demo: boolean;
  totalValue: Fact;
  cash: Fact;
  positionsValue: Fact;
  startingCash: Fact;
  dailyPnl: Fact;
  dailyPnlPercent: Fact;
  realisedToday: Fact;
  totalPnl: Fact;
  totalPnlPercent: Fact;
  realisedPnl: Fact;
  unrealisedPnl: Fact;
  openPositions: Fact;
  dailyPnlValue: number;
  totalPnlValue: number;
}

export interface PositionResult {
  symbol: CoinSymbol;
  quantity: Fact;
  entryPrice: Fact;
  currentPrice: Fact;
  unrealisedPnl: Fact;
  stopLoss: Fact | null;
  takeProfit: Fact | null;
  exitRule: Fact;
  riskPercentage: Fact;
}
export interface PositionsResult {
  positions: PositionResult[];
  count: Fact;
}

export interface TradeResult {
  id: string;
  type: 'BUY' | 'SELL';
  symbol: CoinSymbol;
  amount: Fact;
  price: Fact;
  time: Fact;
  source: Fact;
  status: Fact;
  pnl: Fact | null;
  /** Why it happened, in words: the bot's rule with its figures, the signal's reasons, or a manual order's exits. */
  decision: Fact | null;
  signal: Fact | null;
  exits: Fact | null;
  closeReason: 'SELL' | 'STOP_LOSS' | 'TAKE_PROFIT' | 'RESET' | null;
  manual: boolean;
}
export interface TradesResult {
  trades: TradeResult[];
  shown: Fact;
  total: Fact;
}

export interface TradeSummaryResult {
  totalTrades: Fact;
  buys: Fact;
  sells: Fact;
  winRate: Fact | null;
  realisedPnl: Fact;
  avgTradeSize: Fact;
}

export interface RefusalResult {
  symbol: CoinSymbol;
  rule: Fact;
  text: Fact;
  time: Fact;
}
export interface RefusalsResult {
  refusals: RefusalResult[];
  shown: Fact;
}

export interface BotStatusResult {
  status: Fact;
  running: boolean;
  startedAt: Fact | null;
  entriesPaused: boolean;
  pauseReason: Fact | null;
}

export interface SignalResult {
  symbol: CoinSymbol;
  signal: {
    type: Fact;
    confidence: Fact;
    price: Fact;
    time: Fact;
    mixed: boolean;
    reasons: Fact[];
  } | null;
  counts: { total: Fact; buy: Fact; sell: Fact; hold: Fact };
}

export interface IndicatorsResult {
  symbol: CoinSymbol;
  price: Fact;
  candleTime: Fact;
  interval: Fact;
  rsi: Fact | null;
  rsiReading: 'Oversold' | 'Overbought' | 'Neutral' | null;
  rsiOversold: Fact;
  rsiOverbought: Fact;
  macd: Fact | null;
  macdSignal: Fact | null;
  macdReading: 'Bullish' | 'Bearish' | 'Flat' | null;
  sma20: Fact | null;
  sma50: Fact | null;
  ema20: Fact | null;
  ma20Reading: 'Above MA' | 'Below MA' | null;
  volume: Fact | null;
}

export interface PriceResult {
  symbol: CoinSymbol;
  price: Fact;
  /** Null when the market cannot say (CoinGecko without a day of history). */
  change24h: Fact | null;
  at: Fact;
}

export interface RiskProfileResult {
  customised: boolean;
  stopLossType: StopLossType;
  maxPositionSize: Fact;
  stopLossType_: Fact;
  stopLossValue: Fact;
  takeProfitRatio: Fact;
  takeProfit: Fact;
  riskRewardRatio: Fact;
  maxDailyLoss: Fact;
  maxDrawdown: Fact;
  maxConcurrentTrades: Fact;
  kelly: Fact;
  dynamicSizing: Fact;
  correlationLimit: Fact;
  volatilityThreshold: Fact;
}

export interface RiskStatusResult {
  dailyPnl: Fact;
  dailyLossUsed: Fact;
  dailyLossLimit: Fact;
  dailyLossUsedPercent: Fact;
  drawdown: Fact;
  maxDrawdown: Fact;
  peak: Fact;
  entriesPaused: boolean;
  pauseReason: Fact | null;
  portfolioRisk: Fact;
  portfolioRiskPercent: Fact;
  openPositions: Fact;
}

export interface AlertResult {
  kind: RiskAlertView['kind'];
  severity: Fact;
  message: Fact;
  time: Fact;
  acknowledged: boolean;
  resolved: boolean;
}
export interface AlertsResult {
  alerts: AlertResult[];
  unacknowledged: Fact;
  total: Fact;
}

export interface SubscriptionResult {
  tier: Fact;
  status: Fact;
  plan: Fact;
  price: Fact;
  cancelled: boolean;
  endsAt: Fact | null;
  daysRemaining: Fact | null;
}

export interface ModelResult {
  status: 'READY' | 'TRAINING' | 'NOT_TRAINED';
  owner: Fact;
  model: Fact;
  trainingDays: Fact;
  accuracy: Fact | null;
  baseline: Fact | null;
  intervalLow: Fact | null;
  intervalHigh: Fact | null;
  /** The interval's confidence level (95 %), a fact so the answer can state it. */
  intervalLevel: Fact;
  verdict: Fact | null;
  testSamples: Fact | null;
  lastTraining: Fact | null;
  training: { queuePosition: Fact; running: boolean } | null;
}

export interface BacktestItemResult {
  id: string;
  strategy: Fact;
  symbol: CoinSymbol;
  status: Fact;
  start: Fact;
  end: Fact;
  /** Null until the run completed. */
  totalTrades: Fact | null;
  winRate: Fact | null;
  totalReturn: Fact | null;
}

export interface BacktestsResult {
  /** How many are listed. */
  count: Fact;
  backtests: BacktestItemResult[];
}

/** One run of a what-if: the settings it traded by and its figures. */
export interface WhatIfRunResult {
  stopType: Fact;
  stopValue: Fact;
  takeProfit: Fact;
  maxPositionSize: Fact;
  totalReturn: Fact;
  finalBalance: Fact;
  closedTrades: Fact;
  /** Null when no trade closed. */
  winRate: Fact | null;
  maxDrawdown: Fact;
}

export interface WhatIfResult {
  symbol: CoinSymbol;
  setting: WhatIfSetting;
  days: Fact;
  start: Fact;
  end: Fact;
  startingCash: Fact;
  value: Fact;
  current: WhatIfRunResult;
  changed: WhatIfRunResult;
}

export interface ToolResults {
  get_profile: ProfileResult;
  get_portfolio: PortfolioResult;
  get_positions: PositionsResult;
  get_trades: TradesResult;
  get_trade_summary: TradeSummaryResult;
  get_bot_refusals: RefusalsResult;
  get_bot_status: BotStatusResult;
  get_signal: SignalResult;
  get_indicators: IndicatorsResult;
  get_price: PriceResult;
  get_risk_profile: RiskProfileResult;
  get_risk_status: RiskStatusResult;
  get_alerts: AlertsResult;
  get_subscription: SubscriptionResult;
  get_model_status: ModelResult;
  explain_term: TermFacts;
  my_backtests: BacktestsResult;
  what_if_backtest: WhatIfResult;
}

// ---------------------------------------------------------------------------------------------
// Builders: a read's response to a tool's result

/** The confidence level of the model's Wilson interval (ml/evaluation.ts uses z = 1.96). */
export const WILSON_LEVEL_PERCENT = 95;

const at = (source: string, api: string): Where => ({ source, api });
const PORTFOLIO = at(screens.dashboard, 'GET /api/portfolio');
const ACTIVE = at(screens.activeTrades, 'GET /api/risk/active-trades');
const TRADES = at(screens.tradeHistory, 'GET /api/trades');
const DECISIONS = at(screens.tradeHistory, 'GET /api/bot/decisions');
const SIGNALS = at(screens.dashboard, 'GET /api/signals');
const INDICATORS = at(screens.dashboard, 'GET /api/indicators');
const PRICE = at(screens.dashboard, 'GET /api/price');
const PARAMETERS = at(screens.riskParameters, 'GET /api/risk/parameters');
const RISK = at(screens.dashboard, 'GET /api/risk');
const ALERTS = at(screens.riskAlerts, 'GET /api/risk/alerts');
const SUBSCRIPTION = at(screens.subscription, 'GET /api/subscription');
const ML = at(screens.dashboard, 'GET /api/ml-status');
const ME = at(screens.settings, 'GET /api/auth/me');

export function profileResult(me: { firstName: string | null; username: string; subscriptionTier: string }): ProfileResult {
  return {
    name: facts.text('profile.firstName', 'First name', me.firstName ?? me.username, ME),
    username: facts.text('profile.username', 'Username', me.username, ME),
    tier: facts.text('profile.tier', 'Plan tier', me.subscriptionTier, ME),
  };
}

export function portfolioResult(p: PortfolioResponse): PortfolioResult {
  return {
    demo: p.demo,
    totalValue: facts.usd('portfolio.totalValue', 'Total value', p.totalValue, PORTFOLIO),
    cash: facts.usd('portfolio.cash', 'Cash', p.cash, PORTFOLIO),
    positionsValue: facts.usd('portfolio.positionsValue', 'Positions value', p.positionsValue, PORTFOLIO),
    startingCash: facts.usd('portfolio.startingCash', 'Starting cash', p.startingCash, PORTFOLIO),
    dailyPnl: facts.signedUsd('portfolio.dailyPnL', '24h P&L (since 00:00 UTC)', p.dailyPnL, PORTFOLIO),
    dailyPnlPercent: facts.signedPercent('portfolio.dailyPnLPercent', '24h P&L, percent', p.dailyPnLPercent, PORTFOLIO),
    realisedToday: facts.signedUsd('portfolio.realisedPnlToday', 'Realised today', p.realisedPnlToday, PORTFOLIO),
    totalPnl: facts.signedUsd('portfolio.totalPnl', 'Total P&L', p.totalPnl, PORTFOLIO),
    totalPnlPercent: facts.signedPercent('portfolio.totalPnlPercent', 'Total P&L, percent of starting cash', p.totalPnlPercent, PORTFOLIO),
    realisedPnl: facts.signedUsd('portfolio.realisedPnl', 'Realised P&L', p.realisedPnl, PORTFOLIO),
    unrealisedPnl: facts.signedUsd('portfolio.unrealisedPnl', 'Unrealised P&L', p.unrealisedPnl, PORTFOLIO),
    openPositions: facts.count('portfolio.openPositions', 'Open positions', p.positions.length, PORTFOLIO),
    dailyPnlValue: p.dailyPnL,
    totalPnlValue: p.totalPnl,
  };
}

export function positionsResult(trades: readonly ActiveRiskTrade[]): PositionsResult {
  return {
    count: facts.count('positions.count', 'Open positions', trades.length, ACTIVE),
    positions: trades.map((t) => {
      const id = `position.${t.symbol}`;
      return {
        symbol: t.symbol,
        quantity: facts.quantity(`${id}.quantity`, `${t.symbol} held`, t.quantity, t.symbol, ACTIVE),
        entryPrice: facts.price(`${id}.entryPrice`, `${t.symbol} average entry`, t.entryPrice, ACTIVE),
        currentPrice: facts.price(`${id}.currentPrice`, `${t.symbol} price now`, t.currentPrice, ACTIVE),
        unrealisedPnl: facts.signedUsd(`${id}.unrealizedPnL`, `${t.symbol} unrealised P&L`, t.unrealizedPnL, ACTIVE),
        stopLoss: t.stopLoss === null ? null : facts.price(`${id}.stopLoss`, `${t.symbol} stop loss`, t.stopLoss, ACTIVE),
        takeProfit: t.takeProfit === null ? null : facts.price(`${id}.takeProfit`, `${t.symbol} take profit`, t.takeProfit, ACTIVE),
        exitRule: facts.text(`${id}.stopRule`, `${t.symbol} exit rule`, t.stopRule, ACTIVE),
        riskPercentage: facts.percent(`${id}.riskPercentage`, `${t.symbol} at risk, percent of the portfolio`, t.riskPercentage, ACTIVE),
      };
    }),
  };
}

/** A signal's one-sentence description (its verdict and reasons), for a bot trade that followed it. */
export type SignalLookup = (signalId: string) => Pick<Signal, 'description'> | undefined;

export function tradesResult(trades: readonly Trade[], total: number, signalOf: SignalLookup): TradesResult {
  return {
    shown: facts.count('trades.shown', 'Trades shown', trades.length, TRADES),
    total: facts.count('trades.total', 'Trades matching', total, TRADES),
    trades: trades.map((t) => {
      const id = `trade.${t.id}`;
      const signal = t.signalId ? signalOf(t.signalId) : undefined;
      return {
        id: t.id,
        type: t.type,
        symbol: t.symbol,
        amount: facts.quantity(`${id}.amount`, 'Amount', t.amount, t.symbol, TRADES),
        price: facts.price(`${id}.price`, 'Fill price', t.price, TRADES),
        time: facts.time(`${id}.timestamp`, 'Placed', t.timestamp, TRADES),
        source: facts.text(`${id}.source`, 'Signal source', t.source, TRADES),
        status: facts.text(`${id}.status`, 'Status', t.status, TRADES),
        pnl: t.pnl === null ? null : facts.signedUsd(`${id}.pnl`, t.pnlRealised ? 'Realised P&L' : 'Unrealised P&L', t.pnl, TRADES),
        decision: t.decision ? decisionFact(`${id}.decision`, t.decision) : null,
        signal: signal ? facts.text(`${id}.signal`, 'Signal followed', signal.description, TRADES) : null,
        exits: t.exits ? facts.text(`${id}.exits`, 'Exit plan', exitsText(t.exits), TRADES) : null,
        closeReason: t.closeReason,
        manual: t.source === 'Manual',
      };
    }),
  };
}

const decisionFact = (id: string, d: BotDecision) => facts.text(id, `Bot rule ${d.rule}`, d.text, TRADES);

function exitsText(exits: NonNullable<Trade['exits']>): string {
  if (exits.kind === 'PROFILE') return "the bot's stop and target, following the risk profile";
  if (exits.kind === 'NONE') return 'no automatic exit';
  const stop = exits.stopLossPercent !== null ? `stop ${exits.stopLossPercent}% below the fill` : 'no stop';
  const target = exits.takeProfitPercent !== null ? `target ${exits.takeProfitPercent}% above` : 'no target';
  return `${stop}, ${target}`;
}

export function tradeSummaryResult(s: TradeSummary): TradeSummaryResult {
  return {
    totalTrades: facts.count('summary.totalTrades', 'Total trades', s.totalTrades, TRADES),
    buys: facts.count('summary.buys', 'Buys', s.buys, TRADES),
    sells: facts.count('summary.sells', 'Sells (closing trades)', s.sells, TRADES),
    winRate: s.winRate === null ? null : facts.percent('summary.winRate', 'Win rate', s.winRate, TRADES),
    realisedPnl: facts.signedUsd('summary.totalPnl', 'Realised P&L, all time', s.totalPnl, TRADES),
    avgTradeSize: facts.usd('summary.avgTradeSize', 'Average trade size', s.avgTradeSize, TRADES),
  };
}

export function refusalsResult(refusals: readonly BotRefusal[]): RefusalsResult {
  return {
    shown: facts.count('refusals.shown', 'Refusals shown', refusals.length, DECISIONS),
    refusals: refusals.map((r) => ({
      symbol: r.symbol,
      rule: facts.text(`refusal.${r.id}.rule`, 'Rule', r.rule, DECISIONS),
      text: facts.text(`refusal.${r.id}.text`, 'Why', r.text, DECISIONS),
      time: facts.time(`refusal.${r.id}.timestamp`, 'Decided', r.timestamp, DECISIONS),
    })),
  };
}

export function botStatusResult(bot: { status: 'ACTIVE' | 'STOPPED'; startedAt: string | null }, drawdown: RiskResponse['drawdown']): BotStatusResult {
  const where = at(screens.dashboard, 'BOT_STATUS (the trading-bots read model)');
  return {
    status: facts.text('bot.status', 'Bot status', bot.status, where),
    running: bot.status === 'ACTIVE',
    startedAt: bot.startedAt ? facts.time('bot.startedAt', 'Started', bot.startedAt, where) : null,
    entriesPaused: drawdown.entriesPaused,
    pauseReason: drawdown.reason ? facts.text('risk.drawdown.reason', 'Why entries are paused', drawdown.reason, RISK) : null,
  };
}

export function signalResult(symbol: CoinSymbol, latest: Signal | null, counts: SignalCounts): SignalResult {
  const id = `signal.${symbol}`;
  return {
    symbol,
    signal: latest
      ? {
          type: facts.text(`${id}.type`, `${symbol} signal`, latest.type, SIGNALS),
          confidence: facts.percent(`${id}.confidence`, `${symbol} signal confidence`, latest.confidence, SIGNALS, 0),
          price: facts.price(`${id}.price`, `${symbol} price at the signal`, latest.price, SIGNALS),
          time: facts.time(`${id}.timestamp`, `${symbol} signal time`, latest.timestamp, SIGNALS),
          mixed: latest.mixed,
          reasons: latest.reasons.map((r) => facts.text(`${id}.reason.${r.indicator}`, `${r.indicator} says ${r.says} (weight ${r.weight})`, r.text, SIGNALS)),
        }
      : null,
    counts: {
      total: facts.count(`signals.${symbol}.total`, `${symbol} signals generated`, counts.total, SIGNALS),
      buy: facts.count(`signals.${symbol}.buy`, `${symbol} BUY signals`, counts.buy, SIGNALS),
      sell: facts.count(`signals.${symbol}.sell`, `${symbol} SELL signals`, counts.sell, SIGNALS),
      hold: facts.count(`signals.${symbol}.hold`, `${symbol} HOLD signals`, counts.hold, SIGNALS),
    },
  };
}

export function indicatorsResult(r: IndicatorsResponse): IndicatorsResult {
  const id = `indicators.${r.symbol}`;
  const price = (name: string, label: string, v: number | null) => (v === null ? null : facts.price(`${id}.${name}`, `${r.symbol} ${label}`, v, INDICATORS));
  const macdValue = (name: string, label: string, v: number | null) => (v === null ? null : facts.number(`${id}.${name}`, `${r.symbol} ${label}`, v, INDICATORS, Math.abs(v) >= 1 ? 2 : 4));
  return {
    symbol: r.symbol,
    price: facts.price(`${id}.price`, `${r.symbol} close of the candle`, r.price, INDICATORS),
    candleTime: facts.time(`${id}.candleTime`, 'Candle', r.candleTime, INDICATORS),
    interval: facts.count(`${id}.intervalMinutes`, 'Candle width (minutes)', r.intervalMinutes, INDICATORS),
    rsi: r.rsi === null ? null : facts.number(`${id}.rsi`, `${r.symbol} RSI`, r.rsi, INDICATORS),
    rsiReading: r.rsi === null ? null : r.rsi < RSI_OVERSOLD ? 'Oversold' : r.rsi > RSI_OVERBOUGHT ? 'Overbought' : 'Neutral',
    rsiOversold: facts.count(`${id}.rsiOversold`, 'RSI oversold below', RSI_OVERSOLD, INDICATORS),
    rsiOverbought: facts.count(`${id}.rsiOverbought`, 'RSI overbought above', RSI_OVERBOUGHT, INDICATORS),
    macd: macdValue('macd', 'MACD', r.macd),
    macdSignal: macdValue('macdSignal', 'MACD signal line', r.macdSignal),
    macdReading: r.macd === null || r.macdSignal === null ? null : r.macd > r.macdSignal ? 'Bullish' : r.macd < r.macdSignal ? 'Bearish' : 'Flat',
    sma20: price('sma20', 'SMA20', r.sma20),
    sma50: price('sma50', 'SMA50', r.sma50),
    ema20: price('ema20', 'EMA20', r.ema20),
    ma20Reading: r.ma20 === null ? null : r.price > r.ma20 ? 'Above MA' : 'Below MA',
    volume: r.volume === null ? null : facts.text(`${id}.volume`, `${r.symbol} volume level`, r.volume, INDICATORS),
  };
}

export function priceResult(p: CoinPriceResponse): PriceResult {
  const id = `price.${p.symbol}`;
  return {
    symbol: p.symbol,
    price: facts.price(`${id}.price`, `${p.symbol} price`, p.price, PRICE),
    change24h: p.changePercent24h === null ? null : facts.signedPercent(`${id}.changePercent24h`, `${p.symbol} 24h change`, p.changePercent24h, PRICE),
    at: facts.time(`${id}.at`, 'As of', p.at, PRICE),
  };
}

const STOP_TYPE_WORDS: Readonly<Record<StopLossType, string>> = { fixed: 'fixed', trailing: 'trailing', atr: 'ATR', volatility: 'volatility' };

export function riskProfileResult(p: RiskParametersResponse): RiskProfileResult {
  const unit = stopLossUnits[p.stopLossType];
  const stopValue =
    unit === 'percent'
      ? facts.plainPercent('risk.stopLossValue', 'Stop-loss value', p.stopLossValue, PARAMETERS)
      : facts.number('risk.stopLossValue', unit === 'atr' ? 'Stop-loss value (times ATR14)' : 'Stop-loss value (times sigma)', p.stopLossValue, PARAMETERS);
  const takeProfit = Math.round(p.stopLossValue * p.takeProfitRatio * 100) / 100;
  return {
    customised: p.customised,
    stopLossType: p.stopLossType,
    maxPositionSize: facts.plainPercent('risk.maxPositionSize', 'Max position size', p.maxPositionSize, PARAMETERS),
    stopLossType_: facts.text('risk.stopLossType', 'Stop-loss type', STOP_TYPE_WORDS[p.stopLossType], PARAMETERS),
    stopLossValue: stopValue,
    takeProfitRatio: facts.number('risk.takeProfitRatio', 'Take-profit ratio', p.takeProfitRatio, PARAMETERS),
    takeProfit: unit === 'percent' ? facts.plainPercent('risk.takeProfit', 'Take profit', takeProfit, PARAMETERS) : facts.number('risk.takeProfit', 'Take profit (in the stop\u2019s unit)', takeProfit, PARAMETERS),
    riskRewardRatio: facts.number('risk.riskRewardRatio', 'Minimum reward/risk', p.riskRewardRatio, PARAMETERS),
    maxDailyLoss: facts.usd('risk.maxDailyLoss', 'Daily loss limit', p.maxDailyLoss, PARAMETERS),
    maxDrawdown: facts.plainPercent('risk.maxDrawdown', 'Max drawdown', p.maxDrawdown, PARAMETERS),
    maxConcurrentTrades: facts.count('risk.maxConcurrentTrades', 'Max concurrent trades', p.maxConcurrentTrades, PARAMETERS),
    kelly: facts.text('risk.kellyCriterionEnabled', 'Kelly sizing', p.kellyCriterionEnabled ? 'on' : 'off', PARAMETERS),
    dynamicSizing: facts.text('risk.dynamicPositionSizing', 'Dynamic sizing', p.dynamicPositionSizing ? 'on' : 'off', PARAMETERS),
    correlationLimit: facts.number('risk.correlationLimit', 'Correlation limit', p.correlationLimit, PARAMETERS),
    volatilityThreshold: facts.plainPercent('risk.volatilityThreshold', 'Volatility threshold', p.volatilityThreshold, PARAMETERS),
  };
}

export function riskStatusResult(r: RiskResponse): RiskStatusResult {
  return {
    dailyPnl: facts.signedUsd('risk.dailyPnL', '24h P&L', r.dailyPnL, RISK),
    dailyLossUsed: facts.usd('risk.dailyLossUsed', "Today's loss", r.dailyLossUsed, RISK),
    dailyLossLimit: facts.usd('risk.dailyLossLimit', 'Daily loss limit', r.dailyLossLimit, RISK),
    dailyLossUsedPercent: facts.percent('risk.dailyLossUsedPercent', 'Daily loss limit used', r.dailyLossUsedPercent, RISK),
    drawdown: facts.percent('risk.drawdown.percent', 'Drawdown from the peak', r.drawdown.percent, RISK),
    maxDrawdown: facts.plainPercent('risk.drawdown.maxDrawdown', 'Max drawdown', r.drawdown.maxDrawdown, RISK),
    peak: facts.usd('risk.drawdown.peak', 'Recorded peak', r.drawdown.peak, RISK),
    entriesPaused: r.drawdown.entriesPaused,
    pauseReason: r.drawdown.reason ? facts.text('risk.drawdown.reason', 'Why entries are paused', r.drawdown.reason, RISK) : null,
    portfolioRisk: facts.usd('risk.portfolioRiskAmount', 'Lost if every stop were hit', r.portfolioRiskAmount, RISK),
    portfolioRiskPercent: facts.percent('risk.portfolioRiskPercent', 'Portfolio at risk', r.portfolioRiskPercent, RISK),
    openPositions: facts.count('risk.openPositions', 'Open positions', r.openPositions, RISK),
  };
}

export function alertsResult(a: RiskAlertsResponse): AlertsResult {
  return {
    unacknowledged: facts.count('alerts.unacknowledged', 'Unacknowledged alerts', a.unacknowledged, ALERTS),
    total: facts.count('alerts.total', 'Alerts', a.alerts.length, ALERTS),
    alerts: a.alerts.map((alert) => ({
      kind: alert.kind,
      severity: facts.text(`alert.${alert.id}.severity`, 'Severity', alert.severity, ALERTS),
      message: facts.text(`alert.${alert.id}.message`, 'Alert', alert.message, ALERTS),
      time: facts.time(`alert.${alert.id}.timestamp`, 'Raised', alert.timestamp, ALERTS),
      acknowledged: alert.acknowledged,
      resolved: alert.resolved,
    })),
  };
}

export function subscriptionResult(s: SubscriptionResponse): SubscriptionResult {
  return {
    tier: facts.text('subscription.tier', 'Tier', s.tier, SUBSCRIPTION),
    status: facts.text('subscription.status', 'Status', s.subscriptionStatus, SUBSCRIPTION),
    plan: facts.text('subscription.plan', 'Plan', s.plan.name, SUBSCRIPTION),
    price: facts.usd('subscription.price', 'Price per month', s.plan.priceUsdPerMonth, SUBSCRIPTION),
    cancelled: s.isCancelled,
    endsAt: s.endsAt ? facts.time('subscription.endsAt', 'Access ends', s.endsAt.iso, SUBSCRIPTION) : null,
    daysRemaining: s.daysRemaining === null ? null : facts.count('subscription.daysRemaining', 'Days remaining', s.daysRemaining, SUBSCRIPTION),
  };
}

export function modelResult(m: MlStatusResponse): ModelResult {
  const pct = (id: string, label: string, v: number | null) => (v === null ? null : facts.percent(id, label, v, ML, 1));
  return {
    status: m.status,
    owner: facts.text('ml.owner', 'Whose model', m.owner === 'own' ? 'your own model' : 'the house model', ML),
    model: facts.text('ml.modelName', 'Model', m.modelName, ML),
    trainingDays: facts.count('ml.trainingDataDays', 'Training days', m.trainingDataDays, ML),
    accuracy: pct('ml.accuracy', 'Held-out accuracy', m.accuracy),
    baseline: pct('ml.baseline', 'Majority baseline', m.baseline),
    intervalLow: m.interval ? facts.percent('ml.interval.low', '95% interval, low', m.interval.low, ML, 1) : null,
    intervalHigh: m.interval ? facts.percent('ml.interval.high', '95% interval, high', m.interval.high, ML, 1) : null,
    intervalLevel: facts.plainPercent('ml.interval.level', 'Interval confidence level', WILSON_LEVEL_PERCENT, ML),
    verdict: m.verdict ? facts.text('ml.verdict', 'Verdict', m.verdict, ML) : null,
    testSamples: m.testSamples === null ? null : facts.count('ml.testSamples', 'Held-out candles', m.testSamples, ML),
    lastTraining: m.lastTraining ? facts.time('ml.lastTraining', 'Last training', m.lastTraining, ML) : null,
    training: m.training ? { queuePosition: facts.count('ml.training.queuePosition', 'Place in the queue', m.training.queuePosition, ML), running: m.training.status === 'RUNNING' } : null,
  };
}

const BACKTESTS = at(screens.backtesting, 'GET /api/backtest/history');

/** The backtest history's rows (newest first) as facts; `strategyName` names a strategy id (the catalogue's). Fractions become percents. */
export function backtestsResult(items: readonly BacktestHistoryItem[], strategyName: (id: string) => string): BacktestsResult {
  return {
    count: facts.count('backtests.count', 'Backtests listed', items.length, BACKTESTS),
    backtests: items.map((b) => {
      const id = `backtests.${b.id}`;
      return {
        id: b.id,
        strategy: facts.text(`${id}.strategy`, 'Strategy', strategyName(b.strategyId), BACKTESTS),
        symbol: b.symbol,
        status: facts.text(`${id}.status`, 'Status', b.status.toLowerCase(), BACKTESTS),
        start: facts.time(`${id}.start`, 'Period start', b.startDate, BACKTESTS),
        end: facts.time(`${id}.end`, 'Period end', b.endDate, BACKTESTS),
        totalTrades: b.totalTrades === null ? null : facts.count(`${id}.totalTrades`, 'Closed trades', b.totalTrades, BACKTESTS),
        winRate: b.winRate === null ? null : facts.percent(`${id}.winRate`, 'Win rate', b.winRate * 100, BACKTESTS, 1),
        totalReturn: b.totalReturn === null ? null : facts.signedPercent(`${id}.totalReturn`, 'Total return', b.totalReturn * 100, BACKTESTS),
      };
    }),
  };
}


const WHAT_IF = at(screens.backtesting, 'the backtester (house signals, paper engine)');

function whatIfRun(prefix: string, profile: RiskProfile, f: BacktestFigures): WhatIfRunResult {
  const unit = stopLossUnits[profile.stopLossType];
  const percent = unit === 'percent';
  const target = Math.round(profile.stopLossValue * profile.takeProfitRatio * 100) / 100;
  return {
    stopType: facts.text(`${prefix}.stopType`, 'Stop-loss type', STOP_TYPE_WORDS[profile.stopLossType], WHAT_IF),
    stopValue: percent ? facts.plainPercent(`${prefix}.stopValue`, 'Stop loss', profile.stopLossValue, WHAT_IF) : facts.number(`${prefix}.stopValue`, 'Stop loss (times the stop\u2019s unit)', profile.stopLossValue, WHAT_IF),
    takeProfit: percent ? facts.plainPercent(`${prefix}.takeProfit`, 'Take profit', target, WHAT_IF) : facts.number(`${prefix}.takeProfit`, 'Take profit (in the stop\u2019s unit)', target, WHAT_IF),
    maxPositionSize: facts.plainPercent(`${prefix}.maxPositionSize`, 'Max position size', profile.maxPositionSize, WHAT_IF),
    totalReturn: facts.signedPercent(`${prefix}.totalReturn`, 'Total return', f.totalReturn * 100, WHAT_IF),
    finalBalance: facts.usd(`${prefix}.finalBalance`, 'Final balance', f.finalBalance, WHAT_IF),
    closedTrades: facts.count(`${prefix}.closedTrades`, 'Closed trades', f.totalTrades, WHAT_IF),
    winRate: f.totalTrades > 0 ? facts.percent(`${prefix}.winRate`, 'Win rate', f.winRate * 100, WHAT_IF, 1) : null,
    maxDrawdown: facts.percent(`${prefix}.maxDrawdown`, 'Max drawdown', f.maxDrawdown * 100, WHAT_IF),
  };
}

/** A what-if's two runs (the profile as it is, and changed) as facts. Fractions become percents. */
export function whatIfResult(w: {
  symbol: CoinSymbol;
  setting: WhatIfSetting;
  value: number;
  days: number;
  startMs: number;
  endMs: number;
  initialCapital: number;
  profile: RiskProfile;
  changedProfile: RiskProfile;
  current: BacktestFigures;
  changed: BacktestFigures;
}): WhatIfResult {
  return {
    symbol: w.symbol,
    setting: w.setting,
    days: facts.count('whatIf.days', 'Days replayed', w.days, WHAT_IF),
    start: facts.time('whatIf.start', 'Period start', new Date(w.startMs).toISOString(), WHAT_IF),
    end: facts.time('whatIf.end', 'Period end', new Date(w.endMs).toISOString(), WHAT_IF),
    startingCash: facts.usd('whatIf.startingCash', 'Starting cash', w.initialCapital, WHAT_IF),
    value: facts.plainPercent('whatIf.value', 'The value asked', w.value, WHAT_IF),
    current: whatIfRun('whatIf.current', w.profile, w.current),
    changed: whatIfRun('whatIf.changed', w.changedProfile, w.changed),
  };
}

export { explainTerm };
