/**
 * The bot's order for one signal and user, filled like an exchange's: the bot's rules decide
 * (decideBotTrade, unchanged: which signals trade, how much), at the prices of the fill time, and the
 * order carries the market it meets (the signal coin's mid at the fill tick, the minute's volume,
 * when it was meant to fill), so the portfolio decider prices the fill and records it. The trading
 * bot worker and the paper engine both call this: the same signal, rules, portfolio and ticks give
 * the same command.
 *
 * Sizing: the bot spends a share of the portfolio on notional + fee at a price; it sizes at the worst
 * price the order can fill at (the mid plus the half spread plus the impact of an order as large as
 * all its cash), so the fill (whose impact is that of its own, smaller, notional) always fits the
 * budget, and the entry the rules see is the price the position will really carry.
 */
import { findCoinBySymbol, halfSpreadOf, type CoinId, type CoinSymbol } from '../../market/coins';
import { decideBotTrade, type BotTradeDecision, type BotTradeInput } from '../bot-trade-decision';
import { microsToUsd, STARTING_CASH_MICROS } from '../money';
import type { PortfolioState } from '../portfolio';
import { fillPrice, priceImpact } from './fills';

/** A coin's market at the fill time, as the market-data port answers it (or the engine reads it from the path). */
export interface BotOrderQuote {
  coinId: CoinId;
  symbol: CoinSymbol;
  /** The mid: the tick's price at `filledAt`. */
  price: number;
  /** ISO-8601: the tick's time (a source without ticks: when its price was observed). */
  filledAt: string;
  /** USD traded in the last complete minute before it. */
  minuteVolumeUsd: number;
}

export type BotOrderInput = Omit<BotTradeInput, 'prices' | 'now'> & {
  /** Every coin's quote at the fill time: the signal coin's is the order's market, all value the portfolio. */
  quotes: readonly BotOrderQuote[];
  /** When the order was meant to fill and when it fills, ms (bot-timing.ts). */
  intendedMs: number;
  fillMs: number;
};

/** The highest price a BUY of `coinId` at `mid` can fill at for a portfolio with this cash. */
export function buySizingPrice(coinId: CoinId, mid: number, minuteVolumeUsd: number, portfolio: PortfolioState): number {
  const cash = microsToUsd(portfolio.status === 'open' ? portfolio.cashMicros : STARTING_CASH_MICROS);
  return fillPrice(mid, 'BUY', halfSpreadOf(coinId), priceImpact(coinId, Math.max(0, cash), minuteVolumeUsd));
}

export function decideBotOrder(input: BotOrderInput): BotTradeDecision {
  const { quotes, intendedMs, fillMs, ...rest } = input;
  const now = new Date(fillMs).toISOString();
  const prices: Partial<Record<CoinSymbol, number>> = {};
  for (const q of quotes) prices[q.symbol] = q.price;
  const coin = findCoinBySymbol(rest.signal.symbol);
  if (!coin) return decideBotTrade({ ...rest, prices, now }); // refused there, as any unsupported coin
  const quote = quotes.find((q) => q.coinId === coin.id);
  if (!quote) throw new Error(`no quote for ${coin.symbol} at ${now}`);
  const sizing = rest.signal.type === 'BUY' ? buySizingPrice(coin.id, quote.price, quote.minuteVolumeUsd, rest.portfolio) : quote.price;
  const decision = decideBotTrade({ ...rest, signal: { ...rest.signal, price: sizing }, prices, now });
  if (decision.action !== 'TRADE') return decision;
  const { command } = decision;
  return {
    ...decision,
    command: {
      ...command,
      data: { ...command.data, price: quote.price, market: { filledAt: quote.filledAt, minuteVolumeUsd: quote.minuteVolumeUsd, intendedAt: new Date(intendedMs).toISOString() } },
    },
  };
}
