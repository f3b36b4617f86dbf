/**
 * The market-data port: what query-api and the workers need to know about the market, whatever
 * serves it (DESIGN.md section 4): the simulated market by default, CoinGecko in production.
 *
 * Coin ids and day ranges reach the port already validated (`coinIdSchema`, `chartDaysSchema` from
 * domain/src/market); an adapter refuses others with a ValidationError all the same. When the source
 * cannot answer (unreachable, rate limited, a server error, an answer of the wrong shape), an adapter
 * throws MarketDataUnavailableError: a 503 with Retry-After, so a client retries later and nobody sees
 * a 500. There is no tick stream here: the feed worker polls `prices()` on its own schedule.
 *
 * What trading needs (issue 17): `quotesAt(t)`, each coin's price at a moment with the volume of the
 * minute before it (what an order filling then meets: the manual trade at its decision, the bot at its
 * signal's fill tick), and `ticks`, the price path up to now for the risk monitor's exit scan. The
 * simulated market has the path, so both are exact for any moment up to now; CoinGecko has only its
 * live prices, so `quotesAt` answers those (with the time they were observed) and `ticks` is null.
 */
import { ServiceUnavailableError, ValidationError } from '@papertrade/domain/shared/errors';
import { chartDaysSchema } from '@papertrade/domain/market/candle-interval';
import { coinIdSchema, type Coin, type CoinId, type CoinSymbol, type PricePoint } from '@papertrade/domain/market/coins';
import type { CandleSeries } from '@papertrade/domain/market/simulation';
import type { BotOrderQuote } from '@papertrade/domain/trading/engine/bot-order';
import type { PriceTicks } from '@papertrade/domain/trading/engine/price-ticks';

export type { CandleSeries };

/** A coin's market at a moment, as an order meets it: the price (mid), when it was the price, the last complete minute's USD volume. */
export type OrderQuote = BotOrderQuote;

export interface CoinPrice {
  coinId: CoinId;
  symbol: CoinSymbol;
  /** USD. */
  price: number;
  /** USD change over the last 24 hours (null when the source does not know it). */
  change24h: number | null;
  changePercent24h: number | null;
  /** USD traded over the last 24 hours (null when the source does not know it). */
  volume24h: number | null;
  /** When the price was observed, ISO-8601. */
  at: string;
}

export interface MarketData {
  /** Which adapter answers: the dashboard may say "simulated market". */
  readonly source: 'simulated' | 'coingecko';
  /**
   * When set, every answer (prices, candles, history) is a function of the clock's time rounded down
   * to a multiple of this many milliseconds since the Unix epoch, so it may be kept until the clock
   * reaches the next multiple (cached-market-data.ts). Leave it out when answers may change at any
   * moment: nothing is kept then.
   */
  readonly resolutionMs?: number;
  /** The coin catalogue, in the catalogue's order. */
  supportedCoins(): readonly Coin[];
  /** Current price and 24-hour change of every supported coin, in the catalogue's order. */
  prices(): Promise<CoinPrice[]>;
  price(coinId: CoinId): Promise<CoinPrice>;
  /**
   * OHLCV candles covering the last `days` days (0 < days <= 365), oldest first. With `endMs` (not
   * after now), the chart as it stood then (the trading bot's figures at a fill time): the simulated
   * market's path has every moment; a source without one answers its chart of now whatever the time.
   */
  candles(coinId: CoinId, days: number, endMs?: number): Promise<CandleSeries>;
  /** Prices over the last `days` days, oldest first. */
  history(coinId: CoinId, days: number): Promise<PricePoint[]>;
  /**
   * Every supported coin's quote at `atMs` (not after now), in the catalogue's order: the tick at or
   * before it on the simulated market; a source without ticks answers its live prices whatever the
   * time asked, each with the time it was observed (`filledAt`), which the trade then records.
   */
  quotesAt(atMs: number): Promise<OrderQuote[]>;
  /** The price path up to now (the simulated market's ticks), or null for a source that has none. */
  readonly ticks: PriceTicks | null;
}

export type MarketDataFailure = 'unreachable' | 'rate-limited' | 'upstream-error' | 'bad-response';

/** The market-data source cannot answer now; retrying after `retryAfterSeconds` may help. */
export class MarketDataUnavailableError extends ServiceUnavailableError {
  constructor(
    readonly reason: MarketDataFailure,
    message: string,
    retryAfterSeconds: number,
  ) {
    super(message, { reason });
    this.retryAfter(retryAfterSeconds);
  }
}

/** Guards for callers that skipped validation: the same rules and messages as the API's. */
export function requireCoinId(coinId: string): CoinId {
  const parsed = coinIdSchema.safeParse(coinId);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? 'unknown coin id', { field: 'coinId' });
  return parsed.data;
}

export function requireDays(days: number): number {
  const parsed = chartDaysSchema.safeParse(days);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? 'invalid days', { field: 'days' });
  return parsed.data;
}

/** A name for a candle width of any number of minutes: 30m, 4h, 4d. */
export function intervalLabel(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440}d`;
  if (minutes % 60 === 0) return `${minutes / 60}h`;
  return `${minutes}m`;
}
