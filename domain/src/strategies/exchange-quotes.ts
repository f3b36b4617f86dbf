/**
 * Per-exchange quotes of the simulated market (issue 19, arbitrage): each exchange quotes the
 * reference price (the market path's candle close) plus a small basis of its own that reverts to zero.
 *
 * The basis of exchange e at candle t is k_e · EMA_αe(r)_t, an exponential average of the reference's
 * log returns up to and including t (r_t = ln(close_t / close_t-1)), with a weight and a sign per
 * exchange: exchanges that lag or lead the reference by different amounts. Returns have no drift, so
 * the basis reverts to zero at the EMA's rate; it is a function of closes known at t only, so it says
 * nothing about t+1 that the path does not (the path is a forward process: DESIGN.md section 9), and
 * it is deterministic: the same path gives the same quotes everywhere.
 *
 * Sizes (ETH, 5-minute candles, per-candle return sd ≈ 0.2 %): each basis has an sd of about 0.05 to
 * 0.1 %, so a spread between two exchanges rarely passes the 0.6 % the two dearest fees (Binance
 * 0.1 % + Coinbase Pro 0.5 %) cost: arbitrage after fees is rare, as on real venues.
 *
 * `BASIS_WINDOW` closes are enough: the slowest EMA (α 0.1) weighs the close 200 candles back by
 * 0.9^200 < 1e-9, so where the window starts does not change a quote.
 */
import { exchangeFeeRate, exchangeIds, type ExchangeId } from '../exchanges/exchanges';

export const BASIS_WINDOW = 200;

/** Weight (sign: leads or lags) and EMA rate of each exchange's basis. */
export const BASIS_MODEL: Readonly<Record<ExchangeId, { weight: number; alpha: number }>> = Object.freeze({
  binance: { weight: 0.5, alpha: 0.5 },
  coinbase: { weight: -0.8, alpha: 0.25 },
  kraken: { weight: 0.6, alpha: 0.1 },
});

export interface ExchangeQuote {
  exchange: ExchangeId;
  price: number;
  /** The basis, a fraction of the reference price. */
  basis: number;
}

/** The quotes at the last close of `closes` (oldest first; at least two closes). */
export function exchangeQuotes(closes: ArrayLike<number>): ExchangeQuote[] {
  const n = closes.length;
  if (n < 2) throw new RangeError('exchange quotes need at least two closes');
  const start = Math.max(1, n - BASIS_WINDOW);
  const reference = closes[n - 1]!;
  return exchangeIds.map((exchange) => {
    const { weight, alpha } = BASIS_MODEL[exchange];
    let ema = 0;
    for (let i = start; i < n; i++) ema += alpha * (Math.log(closes[i]! / closes[i - 1]!) - ema);
    const basis = weight * ema;
    return { exchange, price: reference * (1 + basis), basis };
  });
}

export interface ArbitrageLeg {
  buyExchange: ExchangeId;
  buyPrice: number;
  sellExchange: ExchangeId;
  sellPrice: number;
  /** (sell − buy) / buy, percent, before fees. */
  grossSpread: number;
  /** What a round trip returns after both exchanges' fees, percent: sell·(1 − fee) / (buy·(1 + fee)) − 1. */
  netSpread: number;
}

/** The best round trip among the quotes: the pair with the highest spread net of both fees. */
export function bestArbitrage(quotes: readonly ExchangeQuote[]): ArbitrageLeg | null {
  let best: ArbitrageLeg | null = null;
  for (const buy of quotes) {
    for (const sell of quotes) {
      if (buy.exchange === sell.exchange) continue;
      const net = ((sell.price * (1 - exchangeFeeRate(sell.exchange))) / (buy.price * (1 + exchangeFeeRate(buy.exchange))) - 1) * 100;
      if (!best || net > best.netSpread) {
        best = { buyExchange: buy.exchange, buyPrice: buy.price, sellExchange: sell.exchange, sellPrice: sell.price, grossSpread: ((sell.price - buy.price) / buy.price) * 100, netSpread: net };
      }
    }
  }
  return best;
}
