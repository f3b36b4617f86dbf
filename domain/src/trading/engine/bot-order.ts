/**
 * The bot's order for one signal and user, filled like an exchange's: the bot's rules decide
 * (decideBotTrade: which signals trade, how much, under the user's risk profile), at the prices of the
 * fill time, and the order carries the market it meets (the signal coin's mid at the fill tick, the
 * minute's volume, when it was meant to fill), so the portfolio decider prices the fill and records it.
 * The trading bot worker and the paper engine both call this: the same signal, profile, market,
 * portfolio and ticks give the same command.
 *
 * A BUY is decided at the price it fills at, so its decision's stop, target, reward/risk and cost are
 * the position's own: the rules first decide at the mid plus the half spread (the least it can fill
 * at), which sizes the order; that order's fill price (its own impact added) is then the entry they
 * decide at again, refusing or sizing from there. The second size is at most the first (a higher
 * price buys no more), so its fill is at most that entry: it always fits the budget, even one that is
 * all the cash, and differs from the entry the rules saw by the impact of the few units the second
 * pass dropped: a few parts in a hundred billion at a deep minute's volume, up to about 1e-6 of the
 * price for a large order in a thin minute (e.g. half a BTC portfolio against $3,000 traded in the
 * minute), which shows in the decision's stop and target at the sixth significant digit.
 */
import { findCoinBySymbol, halfSpreadOf, type CoinId, type CoinSymbol } from '../../market/coins';
import { isoOf } from '../../shared/time-memo';
import { decideBotTrade, type BotTradeDecision, type BotTradeInput } from '../bot-trade-decision';
import { quantityToUnits, unitsToQuantity } from '../money';
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

/** The price the order of `units` whole units of `coinId` fills at (BUY) at mid `mid`. */
function buyFillPrice(coinId: CoinId, mid: number, minuteVolumeUsd: number, units: number): number {
  return fillPrice(mid, 'BUY', halfSpreadOf(coinId), priceImpact(coinId, unitsToQuantity(units) * mid, minuteVolumeUsd));
}

/** The rules' decision with the signal priced at `price` (the order's entry). */
function decideAt(input: BotOrderInput, price: number, prices: Partial<Record<CoinSymbol, number>>, now: string): BotTradeDecision {
  const { userId, signal, profile, portfolio, market, explain } = input;
  return decideBotTrade({ userId, signal: price === signal.price ? signal : { ...signal, price }, profile, portfolio, market, prices, now, explain: explain !== false });
}

export function decideBotOrder(input: BotOrderInput): BotTradeDecision {
  const { quotes, intendedMs, fillMs } = input;
  const now = isoOf(fillMs);
  const prices: Partial<Record<CoinSymbol, number>> = {};
  for (const q of quotes) prices[q.symbol] = q.price;
  const coin = findCoinBySymbol(input.signal.symbol);
  if (!coin) return decideAt(input, input.signal.price, prices, now); // refused there, as any unsupported coin
  let quote: BotOrderQuote | undefined;
  for (const q of quotes) if (q.coinId === coin.id) quote = quote ?? q;
  if (!quote) throw new Error(`no quote for ${coin.symbol} at ${now}`);
  let decision = decideAt(input, input.signal.type === 'BUY' ? fillPrice(quote.price, 'BUY', halfSpreadOf(coin.id), 0) : quote.price, prices, now);
  if (decision.action === 'TRADE' && input.signal.type === 'BUY') {
    decision = decideAt(input, buyFillPrice(coin.id, quote.price, quote.minuteVolumeUsd, quantityToUnits(decision.command.data.amount)), prices, now);
  }
  if (decision.action !== 'TRADE') return decision;
  // The command is this call's own (decideBotTrade made it): it is given the market it meets in place.
  const data = decision.command.data;
  data.price = quote.price;
  data.market = { filledAt: quote.filledAt, minuteVolumeUsd: quote.minuteVolumeUsd, intendedAt: isoOf(intendedMs) };
  return decision;
}
