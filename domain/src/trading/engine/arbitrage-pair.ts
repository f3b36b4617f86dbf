/**
 * The bot's pair for an arbitrage strategy's signal (issue 19): what the trading bot does with one
 * ARBITRAGE signal (strategy-signals.ts decideArbitrage) for one user, under that user's risk profile.
 * Pure, like decideBotOrder: the worker passes the signal, the profile, the portfolio and every coin's
 * quote at the fill tick, and issues the PlaceArbitragePair it answers (or records the refusal).
 *
 * The pair: the same quantity bought on the exchange quoting lower and sold on the one quoting higher,
 * at once, at the fill tick (bot-timing.ts, as every bot order). Each exchange's quote is the signal's
 * basis over the market (its quote / the candle's close) applied to the coin's mid at the fill tick, so
 * the spread is the one the strategy found and the dollars are the fill time's; a signal recorded
 * without the close fills at its quotes as they were. Each leg pays the fill costs every order pays
 * (the half spread and impact, engine/fills.ts) and its exchange's fee (the one fee table); the pair
 * realises the net spread captured and holds no coin afterwards (pair-fills.ts, portfolio.decider.ts).
 *
 * Rules, in order (each refusal a recorded decision, signal type ARBITRAGE):
 *   DAILY_LOSS_LIMIT, MAX_DRAWDOWN  as for every entry (bot-trade-decision.ts entriesStopped);
 *   TOO_SMALL  the size buys less than the smallest trade.
 * The size is the smallest of: the strategy's maxPositionSize (USD), the profile's maxPositionSize
 * (percent of the portfolio's value at the fill tick) and what the cash pays for with the BUY leg's
 * fee. The rules about holding a position (one per coin, concurrent positions, correlation,
 * volatility, reward/risk, Kelly) do not apply: the pair holds nothing once placed.
 */
import { findCoinBySymbol, halfSpreadOf } from '../../market/coins';
import { exchangeFeeRate, exchangeInfo } from '../../exchanges/exchanges';
import { tradeIdFor, entriesStopped, type BotSkipReason } from '../bot-trade-decision';
import type { BotDecision, RiskProfile } from '../contracts';
import { feeMicrosAt, MICROS_PER_USD, mostUnitsFitting, notionalMicros, STARTING_CASH_MICROS, unitsToQuantity, usdToMicros } from '../money';
import { usdText } from '../money-text';
import type { PortfolioState, TradeStrategy } from '../portfolio';
import { MIN_TRADE_VALUE_MICROS, type PlaceArbitragePair } from '../portfolio.decider';
import { valuePortfolio } from '../portfolio-valuation';
import type { BotOrderQuote } from './bot-order';
import { fillPrice, priceImpact, type FillMarket } from './fills';
import { pairFills, type PairLegQuote } from './pair-fills';

/** An ARBITRAGE StrategySignalGenerated as the bot follows it. */
export interface ArbitrageSignal {
  eventId: string;
  signalId: string;
  symbol: string;
  candleTime: string;
  strategy: TradeStrategy;
  /** The exchanges and their quotes at the signal's candle close. */
  buy: PairLegQuote;
  sell: PairLegQuote;
  /** The candle's close the quotes are a basis over (absent on signals recorded before it: the quotes fill as they are). */
  referencePrice?: number;
  /** The strategy's maxPositionSize, USD per pair. */
  maxPositionUsd: number;
}

export interface ArbitragePairInput {
  userId: string;
  signal: ArbitrageSignal;
  profile: RiskProfile;
  portfolio: PortfolioState;
  /** Every coin's quote at the fill tick (the signal coin's is the pair's market; all value the portfolio). */
  quotes: readonly BotOrderQuote[];
  intendedMs: number;
  fillMs: number;
}

export type ArbitragePairDecision =
  | { action: 'TRADE'; command: PlaceArbitragePair; decision: BotDecision }
  | { action: 'SKIP'; reason: BotSkipReason; detail: string; decision: BotDecision | null };

/** The trade ids of a pair: the pair's (the bot's trade id for the signal and user) and its two legs'. */
export function pairTradeIds(signalId: string, userId: string): { pairId: string; buyTradeId: string; sellTradeId: string } {
  const pairId = tradeIdFor(signalId, userId);
  return { pairId, buyTradeId: `${pairId}:buy`, sellTradeId: `${pairId}:sell` };
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
const feeText = (rate: number) => `${round(rate * 100, 4)}%`;

/** The most whole units whose notional is at most `sizeMicros` and whose notional + fee at `feeRate` is at most `cashMicros`, at `price`. */
function unitsFor(sizeMicros: number, cashMicros: number, price: number, feeRate: number): number {
  const budget = Math.min(sizeMicros, Math.floor(cashMicros / (1 + feeRate)));
  if (budget <= 0) return 0;
  return mostUnitsFitting(Math.floor((budget * 100) / price), (units) => notionalMicros(units, price) <= sizeMicros && notionalMicros(units, price) + feeMicrosAt(notionalMicros(units, price), feeRate) <= cashMicros);
}

export function decideArbitragePair(input: ArbitragePairInput): ArbitragePairDecision {
  const { userId, signal, profile, portfolio, quotes, intendedMs, fillMs } = input;
  const now = new Date(fillMs).toISOString();
  const refuse = (rule: BotSkipReason & BotDecision['rule'], text: string, figures: Record<string, number>): ArbitragePairDecision => ({
    action: 'SKIP',
    reason: rule,
    detail: text,
    decision: { rule, text: `refused: ${text}`, figures },
  });
  const coin = findCoinBySymbol(signal.symbol);
  if (!coin) return { action: 'SKIP', reason: 'UNSUPPORTED_COIN', detail: `${signal.symbol} is not a supported coin`, decision: null };
  const quote = quotes.find((q) => q.coinId === coin.id);
  if (!quote) throw new Error(`no quote for ${coin.symbol} at ${now}`);

  const prices: Record<string, number> = {};
  for (const q of quotes) prices[q.symbol] = q.price;
  const stopped = entriesStopped(portfolio, profile, prices, now);
  if (stopped) return refuse(stopped.rule, stopped.text, stopped.figures);

  // Each exchange's basis over the market, at the fill tick's mid.
  const scale = signal.referencePrice !== undefined && signal.referencePrice > 0 ? quote.price / signal.referencePrice : 1;
  const buy: PairLegQuote = { exchange: signal.buy.exchange, mid: signal.buy.mid * scale };
  const sell: PairLegQuote = { exchange: signal.sell.exchange, mid: signal.sell.mid * scale };

  const value = valuePortfolio(portfolio, prices).totalValue;
  const profileMaxUsd = (value * profile.maxPositionSize) / 100;
  const sizeUsd = Math.min(signal.maxPositionUsd, profileMaxUsd);
  const cashMicros = portfolio.status === 'open' ? portfolio.cashMicros : STARTING_CASH_MICROS;
  const buyFeeRate = exchangeFeeRate(buy.exchange);
  // Sized at the fill price of the whole size (its impact the most the pair pays): the legs' own fill, of
  // at most that many units, is at most this price, so the BUY leg always fits the cash.
  const sizeMicros = usdToMicros(sizeUsd);
  const price = fillPrice(buy.mid, 'BUY', halfSpreadOf(coin.id), priceImpact(coin.id, sizeUsd, quote.minuteVolumeUsd));
  const units = unitsFor(sizeMicros, cashMicros, price, buyFeeRate);
  const sizing = {
    strategyMaxUsd: signal.maxPositionUsd,
    profileMaxUsd: round(profileMaxUsd),
    maxPositionSize: profile.maxPositionSize,
    cash: round(cashMicros / MICROS_PER_USD),
  };
  if (units < 1 || notionalMicros(units, price) < MIN_TRADE_VALUE_MICROS) {
    return refuse('TOO_SMALL', `the pair's size ${usdText(sizeUsd)} within the cash ${usdText(cashMicros / MICROS_PER_USD)} buys less than the smallest trade`, sizing);
  }

  const market: FillMarket = { filledAt: quote.filledAt, minuteVolumeUsd: quote.minuteVolumeUsd, intendedAt: new Date(intendedMs).toISOString() };
  const fills = pairFills(coin.id, units, buy, sell, market);
  const quantity = unitsToQuantity(units);
  const cashCapped = Math.floor(cashMicros / (1 + buyFeeRate)) < sizeMicros;
  const names = { buy: exchangeInfo(buy.exchange).name, sell: exchangeInfo(sell.exchange).name };
  const net = fills.realisedPnlMicros / MICROS_PER_USD;
  const text =
    `bought ${quantity} ${coin.symbol} on ${names.buy} at ${usdText(fills.buy.price)} and sold it on ${names.sell} at ${usdText(fills.sell.price)} at once: ` +
    `${usdText(fills.buy.notionalMicros / MICROS_PER_USD)}, the smaller of the strategy's maximum ${usdText(signal.maxPositionUsd)} and ${profile.maxPositionSize}% of the portfolio's ${usdText(value)} (${usdText(profileMaxUsd)})` +
    `${cashCapped ? `, cut to what the cash ${usdText(cashMicros / MICROS_PER_USD)} pays for` : ''}; ` +
    `fees ${usdText(fills.buy.feeMicros / MICROS_PER_USD)} (${names.buy} ${feeText(fills.buy.feeRate)}) and ${usdText(fills.sell.feeMicros / MICROS_PER_USD)} (${names.sell} ${feeText(fills.sell.feeRate)}); ` +
    `net ${usdText(net)}`;
  const decision: BotDecision = {
    rule: 'ARBITRAGE_PAIR',
    text,
    figures: {
      ...sizing,
      sizeUsd: round(fills.buy.notionalMicros / MICROS_PER_USD),
      buyPrice: fills.buy.price,
      sellPrice: fills.sell.price,
      buyFee: round(fills.buy.feeMicros / MICROS_PER_USD, 6),
      sellFee: round(fills.sell.feeMicros / MICROS_PER_USD, 6),
      netPnl: round(net, 6),
    },
  };
  const ids = pairTradeIds(signal.signalId, userId);
  return {
    action: 'TRADE',
    decision,
    command: {
      type: 'PlaceArbitragePair',
      data: {
        userId,
        ...ids,
        symbol: coin.symbol,
        amount: quantity,
        buy,
        sell,
        source: { kind: 'SIGNAL', eventId: signal.eventId, signalId: signal.signalId, signalType: 'ARBITRAGE', candleTime: signal.candleTime, strategy: signal.strategy },
        market,
        decision,
      },
      metadata: { now },
    },
  };
}
