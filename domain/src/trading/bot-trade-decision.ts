/**
 * What the trading bot does with one signal for one user: the PlaceSimulatedTrade to issue, or the
 * reason to do nothing. Pure: the trading bot worker (a process manager following SignalGenerated)
 * passes the signal, the user's bot settings and risk parameters, the portfolio state, the prices
 * and `now`, and issues the command through the command handler.
 *
 * Rules, in order:
 * - HOLD signals trade nothing; neither does a signal on a coin the product does not support.
 * - SELL: sells the whole position in the coin, if any (the bot closes what it holds on a SELL;
 *   it never sells what it does not hold). Allowed after the daily loss limit: closing a position
 *   reduces risk, and blocking exits would be the opposite of a loss limit.
 * - BUY: refused when today's (UTC) realised loss has reached the bot's dailyLossLimit; when a
 *   position in the coin is already open (one open position per coin); when maxConcurrentTrades
 *   positions are open. Otherwise it spends maxPositionSize percent of the portfolio's value at
 *   the prices given (cash + positions), capped by the cash left after the fee; refused when that
 *   is worth less than the smallest trade.
 *
 * The trade id derives from the signal id and the user id (UUIDv5, tradeIdFor), so the same signal
 * for the same user is always the same trade: the portfolio decider appends nothing the second time.
 */
import { v5 as uuidv5 } from 'uuid';
import { findCoinBySymbol } from '../market/coins';
import type { SignalType } from '../signals/signal-rules';
import type { BotSettings, RiskParameters } from './contracts';
import { feeMicros, MICROS_PER_USD, notionalMicros, STARTING_CASH_MICROS, TRADE_FEE_RATE, UNITS_PER_COIN, unitsToQuantity, usdToMicros } from './money';
import { usdText } from './money-text';
import { utcDay, type PortfolioState } from './portfolio';
import { MIN_TRADE_VALUE_MICROS, type PlaceSimulatedTrade } from './portfolio.decider';
import { valuePortfolio, type Prices } from './portfolio-valuation';

/** The namespace of bot trade ids (a fixed random UUID: changing it would change every trade id). */
export const BOT_TRADE_ID_NAMESPACE = 'c1d0f3a2-7b4e-4c55-9e61-2f8a9b3d6e17';

/** The trade the bot places for `userId` on signal `signalId`: the same pair always yields the same id. */
export function tradeIdFor(signalId: string, userId: string): string {
  return uuidv5(`${signalId}\n${userId}`, BOT_TRADE_ID_NAMESPACE);
}

/** The SignalGenerated the bot follows, with its stored event id. */
export interface BotSignal {
  eventId: string;
  signalId: string;
  type: SignalType;
  symbol: string;
  price: number;
  confidence: number;
  candleTime: string;
}

export interface BotTradeInput {
  userId: string;
  signal: BotSignal;
  settings: BotSettings;
  parameters: RiskParameters;
  portfolio: PortfolioState;
  /** Current prices of the coins held, to value the portfolio (the signal's coin is valued at the signal's price, its fill price). */
  prices: Prices;
  now: string;
}

export type BotSkipReason =
  | 'HOLD_SIGNAL'
  | 'UNSUPPORTED_COIN'
  | 'NOTHING_TO_SELL'
  | 'DAILY_LOSS_LIMIT_REACHED'
  | 'POSITION_ALREADY_OPEN'
  | 'MAX_CONCURRENT_TRADES'
  | 'TOO_SMALL';

export type BotTradeDecision = { action: 'TRADE'; command: PlaceSimulatedTrade } | { action: 'SKIP'; reason: BotSkipReason; detail: string };

/** Today's realised loss in USD (0 when today realised a gain or nothing). */
export function dailyRealisedLossUsd(portfolio: PortfolioState, now: string): number {
  if (portfolio.status !== 'open' || !portfolio.daily || portfolio.daily.day !== utcDay(now)) return 0;
  return Math.max(0, -portfolio.daily.realisedPnlMicros) / MICROS_PER_USD;
}

export function decideBotTrade(input: BotTradeInput): BotTradeDecision {
  const { userId, signal, settings, parameters, portfolio, now } = input;
  const skip = (reason: BotSkipReason, detail: string): BotTradeDecision => ({ action: 'SKIP', reason, detail });
  const coin = findCoinBySymbol(signal.symbol);
  if (!coin) return skip('UNSUPPORTED_COIN', `${signal.symbol} is not a supported coin`);
  if (signal.type === 'HOLD') return skip('HOLD_SIGNAL', 'a HOLD signal places no trade');

  const command = (side: 'BUY' | 'SELL', units: number): BotTradeDecision => ({
    action: 'TRADE',
    command: {
      type: 'PlaceSimulatedTrade',
      data: {
        userId,
        tradeId: tradeIdFor(signal.signalId, userId),
        symbol: coin.symbol,
        side,
        amount: unitsToQuantity(units),
        price: signal.price,
        source: { kind: 'SIGNAL', eventId: signal.eventId, signalId: signal.signalId, signalType: signal.type, candleTime: signal.candleTime },
      },
      metadata: { now },
    },
  });

  const held = portfolio.status === 'open' ? portfolio.positions[coin.symbol] : undefined;
  if (signal.type === 'SELL') {
    if (!held) return skip('NOTHING_TO_SELL', `no ${coin.symbol} held`);
    return command('SELL', held.units);
  }

  const loss = dailyRealisedLossUsd(portfolio, now);
  if (loss >= settings.dailyLossLimit) return skip('DAILY_LOSS_LIMIT_REACHED', `realised loss today ${usdText(loss)} has reached the limit of ${usdText(settings.dailyLossLimit)}`);
  if (held) return skip('POSITION_ALREADY_OPEN', `a ${coin.symbol} position is already open`);
  const open = portfolio.status === 'open' ? Object.values(portfolio.positions).filter((p) => p !== undefined).length : 0;
  if (open >= parameters.maxConcurrentTrades) return skip('MAX_CONCURRENT_TRADES', `${open} positions open, the maximum is ${parameters.maxConcurrentTrades}`);

  const valuation = valuePortfolio(portfolio, { ...input.prices, [coin.symbol]: signal.price });
  const budgetMicros = Math.min(usdToMicros((valuation.totalValue * settings.maxPositionSize) / 100), spendableMicros(portfolio));
  const units = unitsWithin(budgetMicros, signal.price);
  if (units < 1 || notionalMicros(units, signal.price) < MIN_TRADE_VALUE_MICROS) {
    return skip('TOO_SMALL', `${settings.maxPositionSize}% of the portfolio within the cash left buys less than the smallest trade`);
  }
  return command('BUY', units);
}

/** Cash the bot may spend on notional + fee. */
function spendableMicros(portfolio: PortfolioState): number {
  return portfolio.status === 'open' ? portfolio.cashMicros : STARTING_CASH_MICROS;
}

/** The most whole units whose notional + fee fit in `budgetMicros` at `price`. */
function unitsWithin(budgetMicros: number, price: number): number {
  if (budgetMicros <= 0) return 0;
  // First guess from the rates, then step down past any rounding so the fill really fits.
  let units = Math.floor((budgetMicros / (1 + TRADE_FEE_RATE) / price) * (UNITS_PER_COIN / MICROS_PER_USD));
  while (units > 0 && notionalMicros(units, price) + feeMicros(notionalMicros(units, price)) > budgetMicros) units -= 1;
  return units;
}
