/**
 * What the trading bot does with one signal for one user: the PlaceSimulatedTrade to issue, or the
 * refusal, each with the rule that decided it and its figures (a `BotDecision`: the trade's event
 * carries it, a refusal is recorded on the risk stream; Trade History shows both). Pure: the trading
 * bot worker (a process manager following SignalGenerated) passes the signal, the user's one risk
 * profile (risk-profile.ts), the portfolio state, the prices, the coin's market figures (computed once
 * per candle for every bot: market-figures.ts) and `now`, and issues the command.
 *
 * Rules, in order:
 * - HOLD signals trade nothing; neither does a signal on a coin the product does not support (no
 *   decision is recorded for either: the signal asked for nothing).
 * - SELL: sells the whole position in the coin, if any (rule SELL_SIGNAL; nothing held: no decision).
 *   Allowed after every entry rule below: closing a position reduces risk.
 * - BUY, refused (each a recorded decision) when:
 *   DAILY_LOSS_LIMIT  today's (UTC) realised loss has reached maxDailyLoss;
 *   MAX_DRAWDOWN      the portfolio is more than maxDrawdown percent below its recorded peak (valued
 *                     at the prices given, the signal's coin at the signal's price);
 *   POSITION_ALREADY_OPEN  a position in the coin is open (one per coin);
 *   MAX_CONCURRENT_TRADES  maxConcurrentTrades positions are open;
 *   MARKET_DATA_UNAVAILABLE  the figures the rules below need are unknown (they cannot be measured,
 *                     so the entry is not taken);
 *   VOLATILITY_THRESHOLD  the coin's 24-hour range is above volatilityThreshold;
 *   CORRELATION_LIMIT the coin's 30-day return correlation with an open position's coin is above
 *                     correlationLimit (the highest one is named);
 *   REWARD_RISK       the entry's reward/risk, net of the fees both ways, falls below riskRewardRatio
 *                     (the stop by the profile's stop-loss type, the target takeProfitRatio times the
 *                     stop's distance: stop-levels.ts, entry-rules.ts);
 *   KELLY_NO_EDGE     with kellyCriterionEnabled and at least 20 closed trades, half Kelly is <= 0;
 *   TOO_SMALL         the size buys less than the smallest trade.
 *   Otherwise it buys: FIXED_SIZE maxPositionSize percent of the portfolio's value; KELLY_SIZE half
 *   Kelly from the user's own win rate and payoff, capped at maxPositionSize (fewer than 20 closed
 *   trades: the fixed size); DYNAMIC_SIZE either of those times the coin's average volatility over its
 *   recent one (within 0.25 to 2), capped at maxPositionSize. Capped by the cash left after the fee.
 *   The BUY records the position's exit plan (the profile's, with the ATR14 and sigma20 at entry).
 *
 * The trade id derives from the signal id and the user id (UUIDv5, tradeIdFor), so the same signal
 * for the same user is always the same trade (or refusal): the deciders append nothing the second time.
 */
import { parse as parseUuid, v5 as uuidv5 } from 'uuid';
import { findCoinBySymbol, type CoinSymbol } from '../market/coins';
import type { SignalType } from '../signals/signal-rules';
import type { BotDecision, BotRule, RiskProfile } from './contracts';
import {
  correlationRefuses,
  drawdownPercent,
  drawdownStopsEntries,
  dynamicScale,
  halfKelly,
  KELLY_MIN_CLOSES,
  payoffRatio,
  rewardRiskRefuses,
  rewardToRisk,
  volatilityPauses,
} from './entry-rules';
import type { CoinFigures } from './market-figures';
import { feeMicros, MICROS_PER_USD, mostUnitsFitting, notionalMicros, STARTING_CASH_MICROS, TRADE_FEE_RATE, UNITS_PER_COIN, unitsToQuantity, usdToMicros } from './money';
import { closedTradesOf, peakOf, utcDay, type PortfolioState, type TradeStrategy } from './portfolio';
import { MIN_TRADE_VALUE_MICROS, type PlaceSimulatedTrade } from './portfolio.decider';
import { portfolioTotalValue, type Prices } from './portfolio-valuation';
import { stopDistance, takeProfitLevel, usdText } from './stop-levels';

/** The namespace of bot trade ids (a fixed random UUID: changing it would change every trade id). */
export const BOT_TRADE_ID_NAMESPACE = 'c1d0f3a2-7b4e-4c55-9e61-2f8a9b3d6e17';
/** The namespace's 16 bytes, parsed once (given as text, uuid parses it twice at every id: a third of an id's time). */
const BOT_TRADE_ID_NAMESPACE_BYTES = parseUuid(BOT_TRADE_ID_NAMESPACE);

/** The trade the bot places for `userId` on signal `signalId`: the same pair always yields the same id. */
export function tradeIdFor(signalId: string, userId: string): string {
  let ofUser = tradeIds.get(userId);
  let id = ofUser?.get(signalId);
  // A memo: found, cleared or kept, the id is the same (only computed again, or the memo larger), so
  // mutants of its conditions and count are equivalent.
  // Stryker disable ConditionalExpression,EqualityOperator,UpdateOperator
  if (id === undefined) {
    if (keptTradeIds >= MAX_TRADE_IDS) {
      tradeIds.clear();
      keptTradeIds = 0;
      ofUser = undefined;
    }
    if (ofUser === undefined) {
      ofUser = new Map();
      tradeIds.set(userId, ofUser);
    }
    id = uuidv5(`${signalId}\n${userId}`, BOT_TRADE_ID_NAMESPACE_BYTES);
    ofUser.set(signalId, id);
    keptTradeIds++;
  }
  // Stryker restore ConditionalExpression,EqualityOperator,UpdateOperator
  return id;
}

/**
 * The ids computed last, by user and signal (a function of the two, so kept ones are the same ids):
 * a walk-forward decides the same signals of a period for each of its parameter sets, and the SHA-1
 * of UUIDv5 was a tenth of its time. Bounded: emptied when full.
 */
const tradeIds = new Map<string, Map<string, string>>();
const MAX_TRADE_IDS = 100_000;
let keptTradeIds = 0;

/** Forgets the kept ids (specs: a mutation test reruns them in one process, and an id kept from an earlier run would hide a changed derivation). */
// Stryker disable all: test support, called by specs only (before every test under mutation testing).
export function forgetTradeIds(): void {
  tradeIds.clear();
  keptTradeIds = 0;
}
// Stryker restore all

/** The SignalGenerated (or a user strategy's BUY or SELL StrategySignalGenerated) the bot follows, with its stored event id. */
export interface BotSignal {
  eventId: string;
  signalId: string;
  type: SignalType;
  symbol: string;
  price: number;
  confidence: number;
  candleTime: string;
  /** A user strategy's signal (issue 19): the trade names the strategy; absent for the house signals. */
  strategy?: TradeStrategy;
  /**
   * tradeIdFor(signalId, the bot's user), when the caller has it already: a backtest keeps it with the
   * candle's texts, as its parameter sets follow the same signals again and again (a lookup among a
   * hundred thousand ids at every trade was a twentieth of a walk-forward).
   */
  tradeId?: string;
}

/** The market as the entry rules read it for the signal's coin, computed once per signal for every bot. */
export interface BotMarket {
  figures: CoinFigures;
  /** The signal coin's 30-day return correlation with each other coin (NaN or absent: unknown). */
  correlations: Partial<Record<CoinSymbol, number>>;
}

export interface BotTradeInput {
  userId: string;
  signal: BotSignal;
  profile: RiskProfile;
  portfolio: PortfolioState;
  /** Current prices of the coins held, to value the portfolio (the signal's coin is valued at the signal's price, its fill price). */
  prices: Prices;
  /** Null when the market history could not be read (every BUY is then refused: its rules cannot be measured). */
  market: BotMarket | null;
  now: string;
  /**
   * Word the decision (default true). False: the decision keeps its rule but no text or figures, and
   * the trade's command carries no decision; every trade and refusal is the same. For runs that read
   * only figures (a walk-forward's in-sample sets), where the texts were a large part of the time.
   */
  explain?: boolean;
}

export type BotSkipReason = 'HOLD_SIGNAL' | 'UNSUPPORTED_COIN' | 'NOTHING_TO_SELL' | Exclude<BotRule, 'SELL_SIGNAL' | 'FIXED_SIZE' | 'KELLY_SIZE' | 'DYNAMIC_SIZE' | 'ARBITRAGE_PAIR'>;

export type BotTradeDecision =
  | { action: 'TRADE'; command: PlaceSimulatedTrade; decision: BotDecision }
  /** `decision`: the refusal to record (a BUY a rule refused); null when the signal asked nothing of this bot. */
  | { action: 'SKIP'; reason: BotSkipReason; detail: string; decision: BotDecision | null };

/** Today's realised loss in USD (0 when today realised a gain or nothing). */
export function dailyRealisedLossUsd(portfolio: PortfolioState, now: string): number {
  if (portfolio.status !== 'open' || !portfolio.daily || portfolio.daily.day !== utcDay(now)) return 0;
  return Math.max(0, -portfolio.daily.realisedPnlMicros) / MICROS_PER_USD;
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const pct = (value: number) => `${round(value).toFixed(2)}%`;

/** A skip with no decision to record (the signal asked nothing of this bot). */
function quiet(reason: BotSkipReason, detail: string): BotTradeDecision {
  return { action: 'SKIP', reason, detail, decision: null };
}

/** A refusal to record: its rule, text and figures (without `explain`, the rule alone). */
function refusal(rule: BotSkipReason & BotRule, text: string, figures: Record<string, number>): BotTradeDecision {
  return { action: 'SKIP', reason: rule, detail: text, decision: { rule, text: text === '' ? '' : `refused: ${text}`, figures: finiteFigures(figures) } };
}

const NO_FIGURES: Record<string, number> = Object.freeze({}) as Record<string, number>;

function unknownRefusal(explain: boolean, symbol: string, what: string): BotTradeDecision {
  return refusal('MARKET_DATA_UNAVAILABLE', explain ? `${symbol}'s ${what} could not be measured (its recent candles are unavailable)` : '', NO_FIGURES);
}

/** The order to place: the command with its decision (without `explain`, the command carries none: see BotTradeInput.explain). */
function order(input: BotTradeInput, symbol: CoinSymbol, side: 'BUY' | 'SELL', units: number, record: BotDecision, figures: CoinFigures | null): BotTradeDecision {
  const { signal, userId } = input;
  const decision = input.explain === false ? record : { ...record, figures: finiteFigures(record.figures) };
  const data: PlaceSimulatedTrade['data'] = {
    userId,
    tradeId: signal.tradeId ?? tradeIdFor(signal.signalId, userId),
    symbol,
    side,
    amount: unitsToQuantity(units),
    price: signal.price,
    source: signal.strategy
      ? { kind: 'SIGNAL', eventId: signal.eventId, signalId: signal.signalId, signalType: signal.type, candleTime: signal.candleTime, strategy: signal.strategy }
      : { kind: 'SIGNAL', eventId: signal.eventId, signalId: signal.signalId, signalType: signal.type, candleTime: signal.candleTime },
  };
  if (side === 'BUY') data.exits = { kind: 'PROFILE', atr: finiteOrNull(figures?.atr14), sigma: finiteOrNull(figures?.sigma20) };
  if (input.explain !== false) data.decision = decision;
  return { action: 'TRADE', decision, command: { type: 'PlaceSimulatedTrade', data, metadata: { now: input.now } } };
}

export function decideBotTrade(input: BotTradeInput): BotTradeDecision {
  const { signal, profile, portfolio, now, market } = input;
  const explain = input.explain !== false;
  const coin = findCoinBySymbol(signal.symbol);
  if (!coin) return quiet('UNSUPPORTED_COIN', `${signal.symbol} is not a supported coin`);
  if (signal.type === 'HOLD') return quiet('HOLD_SIGNAL', 'a HOLD signal places no trade');

  const open = portfolio.status === 'open' ? portfolio : null;
  const held = open?.positions[coin.symbol];
  if (signal.type === 'SELL') {
    if (!held) return quiet('NOTHING_TO_SELL', `no ${coin.symbol} held`);
    const quantity = unitsToQuantity(held.units);
    return order(input, coin.symbol, 'SELL', held.units, { rule: 'SELL_SIGNAL', text: explain ? `sold the whole ${coin.symbol} position (${quantity} ${coin.symbol}) on a SELL signal` : '', figures: explain ? { quantity } : NO_FIGURES }, null);
  }

  // Copied, then the signal's coin set: a spread and a computed key in one literal is V8's slow path.
  const prices = { ...input.prices };
  prices[coin.symbol] = signal.price;
  const stopped = entriesStopped(portfolio, profile, prices, now, explain);
  if (stopped) return refusal(stopped.rule, stopped.text, stopped.figures);
  const totalValue = portfolioTotalValue(portfolio, prices);
  if (held) return refusal('POSITION_ALREADY_OPEN', explain ? `a position in ${coin.symbol} is already open` : '', NO_FIGURES);
  let heldCount = 0;
  if (open) for (const s in open.positions) if (open.positions[s as CoinSymbol] !== undefined) heldCount++;
  if (heldCount >= profile.maxConcurrentTrades) {
    return refusal('MAX_CONCURRENT_TRADES', explain ? `${heldCount} positions open, the maximum is ${profile.maxConcurrentTrades}` : '', explain ? { open: heldCount, maxConcurrentTrades: profile.maxConcurrentTrades } : NO_FIGURES);
  }

  if (!market) return unknownRefusal(explain, coin.symbol, 'market history');
  const f = market.figures;
  if (!Number.isFinite(f.range24hPercent)) return unknownRefusal(explain, coin.symbol, '24-hour range');
  if (volatilityPauses(f.range24hPercent, profile.volatilityThreshold)) {
    return refusal(
      'VOLATILITY_THRESHOLD',
      explain ? `${coin.symbol}'s 24-hour range ${pct(f.range24hPercent)} is above the volatility threshold ${profile.volatilityThreshold}%` : '',
      explain ? { range24hPercent: round(f.range24hPercent), volatilityThreshold: profile.volatilityThreshold } : NO_FIGURES,
    );
  }
  let highestSymbol: CoinSymbol | null = null;
  let highestCorrelation = 0;
  if (open) {
    for (const s in open.positions) {
      const symbol = s as CoinSymbol;
      if (open.positions[symbol] === undefined) continue;
      const correlation = market.correlations[symbol];
      if (correlation === undefined || !Number.isFinite(correlation)) return unknownRefusal(explain, coin.symbol, `30-day correlation with ${symbol}`);
      if (highestSymbol === null || correlation > highestCorrelation) {
        highestSymbol = symbol;
        highestCorrelation = correlation;
      }
    }
  }
  if (highestSymbol !== null && correlationRefuses(highestCorrelation, profile.correlationLimit)) {
    return refusal(
      'CORRELATION_LIMIT',
      explain ? `correlation ${highestCorrelation.toFixed(2)} with ${highestSymbol} above ${profile.correlationLimit.toFixed(2)}` : '',
      explain ? { correlation: round(highestCorrelation, 4), correlationLimit: profile.correlationLimit } : NO_FIGURES,
    );
  }

  const entry = signal.price;
  const distance = stopDistance(profile.stopLossType, profile.stopLossValue, entry, f.atr14, f.sigma20);
  if (!(distance > 0)) return unknownRefusal(explain, coin.symbol, profile.stopLossType === 'atr' ? 'ATR14' : 'volatility (sigma)');
  const stopLoss = entry - distance;
  const takeProfit = takeProfitLevel(entry, distance, profile.takeProfitRatio);
  const rr = rewardToRisk(entry, stopLoss, takeProfit, TRADE_FEE_RATE);
  if (stopLoss <= 0 || rewardRiskRefuses(rr, profile.riskRewardRatio)) {
    return refusal(
      'REWARD_RISK',
      // A stop at or below $0 is refused whatever the ratio says: it protects nothing (the whole entry is at risk).
      explain
        ? stopLoss <= 0
          ? `stop ${usdText(stopLoss)} at or below $0: ${usdText(distance)} below the entry ${usdText(entry)} puts the whole entry at risk`
          : `reward/risk ${Number.isFinite(rr) ? rr.toFixed(2) : 'unknown'} below ${profile.riskRewardRatio.toFixed(2)} (stop ${usdText(stopLoss)}, target ${usdText(takeProfit)}, fees included)`
        : '',
      explain ? { ...exitFiguresOf(stopLoss, takeProfit, rr), riskRewardRatio: profile.riskRewardRatio } : NO_FIGURES,
    );
  }

  // Sizing: percent of the portfolio's value.
  let rule: BotRule = 'FIXED_SIZE';
  let sizePercent = profile.maxPositionSize;
  let sizing = explain ? `fixed size ${profile.maxPositionSize}%` : '';
  const sizeFigures: Record<string, number> = {};
  if (profile.kellyCriterionEnabled) {
    const stats = closedTradesOf(open ?? {});
    const kelly = halfKelly(stats);
    if (Number.isNaN(kelly)) {
      if (explain) sizing = `fixed size ${profile.maxPositionSize}% (Kelly needs ${KELLY_MIN_CLOSES} closed trades, ${stats.closes} so far)`;
      sizeFigures.closedTrades = stats.closes;
    } else {
      const winRate = (stats.wins / stats.closes) * 100;
      const payoff = payoffRatio(stats);
      Object.assign(sizeFigures, { halfKellyPercent: round(kelly * 100), winRatePercent: round(winRate), payoff: round(payoff, 4), closedTrades: stats.closes });
      const about = explain ? `win rate ${winRate.toFixed(1)}%, payoff ${Number.isFinite(payoff) ? payoff.toFixed(2) : 'no loss yet'} over ${stats.closes} closed trades` : '';
      if (kelly <= 0) return refusal('KELLY_NO_EDGE', explain ? `half Kelly ${pct(kelly * 100)} (${about}): no edge` : '', explain ? sizeFigures : NO_FIGURES);
      rule = 'KELLY_SIZE';
      sizePercent = Math.min(kelly * 100, profile.maxPositionSize);
      if (explain) sizing = `half Kelly ${pct(kelly * 100)}${kelly * 100 > profile.maxPositionSize ? ` capped at ${profile.maxPositionSize}%` : ''} (${about})`;
    }
  }
  if (profile.dynamicPositionSizing) {
    const scale = dynamicScale(f.averageVolatility, f.recentVolatility);
    if (Number.isNaN(scale)) return unknownRefusal(explain, coin.symbol, 'volatility');
    const scaled = Math.min(sizePercent * scale, profile.maxPositionSize);
    Object.assign(sizeFigures, { basePercent: round(sizePercent, 4), volatilityScale: round(scale, 4), averageVolatility: f.averageVolatility, recentVolatility: f.recentVolatility });
    if (explain) sizing = `${sizing} x volatility scale ${scale.toFixed(2)} (average ${pct(f.averageVolatility * 100)} / recent ${pct(f.recentVolatility * 100)} per 5 minutes)${sizePercent * scale > profile.maxPositionSize ? `, capped at ${profile.maxPositionSize}%` : ''}`;
    rule = 'DYNAMIC_SIZE';
    sizePercent = scaled;
  }

  const budgetMicros = Math.min(usdToMicros((totalValue * sizePercent) / 100), spendableMicros(portfolio));
  const units = unitsWithin(budgetMicros, entry);
  if (units < 1 || notionalMicros(units, entry) < MIN_TRADE_VALUE_MICROS) {
    return refusal('TOO_SMALL', explain ? `${pct(sizePercent)} of the portfolio within the cash left buys less than the smallest trade` : '', explain ? { sizePercent: round(sizePercent, 4) } : NO_FIGURES);
  }
  if (!explain) return order(input, coin.symbol, 'BUY', units, { rule, text: '', figures: NO_FIGURES }, f);
  const cost = (notionalMicros(units, entry) + feeMicros(notionalMicros(units, entry))) / MICROS_PER_USD;
  const text =
    `bought ${pct(sizePercent)} of ${usdText(totalValue)} (${usdText(cost)} with the fee): ${sizing}; ` +
    `stop ${usdText(stopLoss)} (${profile.stopLossType} ${profile.stopLossValue}${profile.stopLossType === 'atr' ? ' x ATR14' : profile.stopLossType === 'volatility' ? ' x sigma' : '%'}), ` +
    `target ${usdText(takeProfit)} (ratio ${profile.takeProfitRatio}), reward/risk ${rr.toFixed(2)}`;
  return order(
    input,
    coin.symbol,
    'BUY',
    units,
    { rule, text, figures: { sizePercent: round(sizePercent, 4), portfolioValue: totalValue, cost: round(cost), ...sizeFigures, ...exitFiguresOf(stopLoss, takeProfit, rr) } },
    f,
  );
}

function exitFiguresOf(stopLoss: number, takeProfit: number, rr: number): Record<string, number> {
  return { stopLoss: round(stopLoss, 6), takeProfit: round(takeProfit, 6), rewardRisk: round(rr, 4) };
}

/**
 * The rules that stop every entry, whatever the coin (the first two BUY rules, and an arbitrage pair's:
 * engine/arbitrage-pair.ts): today's realised loss at the daily limit, the drawdown from the recorded
 * peak (the portfolio valued at `prices`) above the maximum. Null: entries may go on.
 */
export function entriesStopped(portfolio: PortfolioState, profile: RiskProfile, prices: Prices, now: string, explain = true): { rule: 'DAILY_LOSS_LIMIT' | 'MAX_DRAWDOWN'; text: string; figures: Record<string, number> } | null {
  const loss = dailyRealisedLossUsd(portfolio, now);
  if (loss >= profile.maxDailyLoss) {
    return { rule: 'DAILY_LOSS_LIMIT', text: explain ? `realised loss today ${usdText(loss)} has reached the daily loss limit ${usdText(profile.maxDailyLoss)}` : '', figures: explain ? { lossToday: round(loss), maxDailyLoss: profile.maxDailyLoss } : NO_FIGURES };
  }
  const totalValue = portfolioTotalValue(portfolio, prices);
  const peak = portfolio.status === 'open' ? peakOf(portfolio) / MICROS_PER_USD : STARTING_CASH_MICROS / MICROS_PER_USD;
  const drawdown = drawdownPercent(peak, totalValue);
  if (drawdownStopsEntries(drawdown, profile.maxDrawdown)) {
    return {
      rule: 'MAX_DRAWDOWN',
      text: explain ? `drawdown ${pct(drawdown)} from the peak ${usdText(Math.max(peak, totalValue))} is above the maximum ${profile.maxDrawdown}%` : '',
      figures: explain ? { drawdownPercent: round(drawdown), peak: round(Math.max(peak, totalValue)), value: totalValue, maxDrawdown: profile.maxDrawdown } : NO_FIGURES,
    };
  }
  return null;
}

/** A decision's figures are numbers a person can read: an unknown (NaN) or unbounded one is left out. */
function finiteFigures(figures: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(figures)) if (Number.isFinite(v)) out[k] = v;
  return out;
}

const finiteOrNull = (value: number | undefined) => (value !== undefined && Number.isFinite(value) && value > 0 ? value : null);

/** Cash the bot may spend on notional + fee. */
function spendableMicros(portfolio: PortfolioState): number {
  return portfolio.status === 'open' ? portfolio.cashMicros : STARTING_CASH_MICROS;
}

/** The most whole units whose notional + fee fit in `budgetMicros` at `price`. */
function unitsWithin(budgetMicros: number, price: number): number {
  // First guess (none above 0 for a budget of 0 or less, which buys nothing) from the rates, then down past any rounding so the fill really fits.
  const guess = Math.floor((budgetMicros / (1 + TRADE_FEE_RATE) / price) * (UNITS_PER_COIN / MICROS_PER_USD));
  return mostUnitsFitting(guess, (units) => notionalMicros(units, price) + feeMicros(notionalMicros(units, price)) <= budgetMicros);
}
