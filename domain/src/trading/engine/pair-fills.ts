/**
 * The fills of an arbitrage pair (issue 19): the same quantity bought on one exchange and sold on
 * another at once, each leg at its exchange's quote with the fill costs every order pays (fills.ts:
 * the coin's half spread and the order's impact, when the command carries its market) and the fee of
 * its own exchange from the one fee table (exchanges.ts), not the paper fee. Pure arithmetic, shared
 * by the portfolio decider (which records the legs) and the bot's pair decision (which states them),
 * so the decision's figures are the legs' to the micro-dollar.
 *
 * The pair's realised P&L is the net spread captured: the sale's notional less its fee, less what the
 * purchase cost with its fee. It holds no coin afterwards.
 */
import type { CoinId } from '../../market/coins';
import { exchangeFeeRate, type ExchangeId } from '../../exchanges/exchanges';
import { feeMicrosAt, notionalMicros, unitsToQuantity } from '../money';
import { executionOf, type Execution, type FillMarket, type OrderSide } from './fills';

/** One leg as asked: the exchange and its quote (the mid the leg fills around), USD per coin. */
export interface PairLegQuote {
  exchange: ExchangeId;
  mid: number;
}

export interface PairLegFill {
  side: OrderSide;
  exchange: ExchangeId;
  /** The exchange's fee rate (0.001 = 0.1 %). */
  feeRate: number;
  /** The fill price: the quote plus (BUY) or less (SELL) the half spread and impact, with a market; else the quote. */
  price: number;
  execution: Execution | undefined;
  notionalMicros: number;
  feeMicros: number;
}

export interface PairFills {
  units: number;
  buy: PairLegFill;
  sell: PairLegFill;
  /** What the purchase cost, fee included: the SELL leg's cost basis. */
  buyCostMicros: number;
  /** sell notional - sell fee - buy cost: the net spread captured. */
  realisedPnlMicros: number;
}

function legFill(coinId: CoinId, side: OrderSide, units: number, quote: PairLegQuote, market: FillMarket | undefined): PairLegFill {
  const { price, execution } = market ? executionOf(coinId, side, quote.mid, unitsToQuantity(units), market) : { price: quote.mid, execution: undefined };
  const feeRate = exchangeFeeRate(quote.exchange);
  const notional = notionalMicros(units, price);
  return { side, exchange: quote.exchange, feeRate, price, execution, notionalMicros: notional, feeMicros: feeMicrosAt(notional, feeRate) };
}

/** `units` (1e-8 coin) of `coinId` bought at `buy` and sold at `sell`, at once. */
export function pairFills(coinId: CoinId, units: number, buy: PairLegQuote, sell: PairLegQuote, market?: FillMarket): PairFills {
  const b = legFill(coinId, 'BUY', units, buy, market);
  const s = legFill(coinId, 'SELL', units, sell, market);
  const buyCostMicros = b.notionalMicros + b.feeMicros;
  return { units, buy: b, sell: s, buyCostMicros, realisedPnlMicros: s.notionalMicros - s.feeMicros - buyCostMicros };
}
