/**
 * The market-data port with its answers kept for as long as they cannot change: an adapter that
 * declares `resolutionMs` answers as a function of the clock's time rounded down to a multiple of it
 * (the simulated market: the minute), so within one such step every `prices()`, `price(coin)` and
 * `candles(coin, days)` is the same answer, computed once. query-api reads the market on every poll
 * of the dashboard (prices for every valuation, a day of candles for the daily P&L and the
 * indicators), and computing those per request was most of their cost.
 *
 * Keyed on the step of the clock (the same clock the adapter reads): an answer is kept only when the
 * clock was in the same step before and after it was computed, and everything kept is dropped when
 * the step changes, so a new step (a new tick of the price path) is computed afresh at once. An
 * adapter without `resolutionMs` (CoinGecko, which caches within its rate limits itself) is passed
 * through. Answers are shared between callers: they are frozen, so a caller cannot change another's.
 *
 * What the trading engine reads at a given time is passed through, not kept: `ticks` (the path itself,
 * with caches of its own), `quotesAt(t)` and a chart ending at a time (`candles(coin, days, endMs)`):
 * their answers are a function of the time asked, not of the clock's step.
 */
import type { Coin, CoinId, PricePoint } from '@papertrade/domain/market/coins';
import type { PriceTicks } from '@papertrade/domain/trading/engine/price-ticks';
import type { CandleSeries, CoinPrice, MarketData, OrderQuote } from './market-data';

/**
 * Answers kept in one step at most: `days` is any decimal a client sends (GET /api/coins/{id}/ohlc),
 * so the keys of a step are not bounded by the coins; past this many, answers are computed and not kept.
 */
export const MARKET_ANSWERS_KEPT = 1_000;

export class CachedMarketData implements MarketData {
  readonly source: MarketData['source'];
  readonly resolutionMs: number | undefined;
  readonly ticks: PriceTicks | null;
  private step = Number.NaN;
  private readonly kept = new Map<string, Promise<unknown>>();

  constructor(
    private readonly inner: MarketData,
    private readonly clock: () => Date,
  ) {
    this.source = inner.source;
    this.resolutionMs = inner.resolutionMs;
    this.ticks = inner.ticks;
  }

  /** The market data a process's reads should use: `inner` itself when it declares no resolution. */
  static over(inner: MarketData, clock: () => Date): MarketData {
    return inner.resolutionMs !== undefined && inner.resolutionMs > 0 ? new CachedMarketData(inner, clock) : inner;
  }

  supportedCoins(): readonly Coin[] {
    return this.inner.supportedCoins();
  }

  prices(): Promise<CoinPrice[]> {
    return this.keep('prices', () => this.inner.prices());
  }

  price(coinId: CoinId): Promise<CoinPrice> {
    return this.keep(`price\u0000${coinId}`, () => this.inner.price(coinId));
  }

  candles(coinId: CoinId, days: number, endMs?: number): Promise<CandleSeries> {
    if (endMs !== undefined) return this.inner.candles(coinId, days, endMs);
    return this.keep(`candles\u0000${coinId}\u0000${days}`, () => this.inner.candles(coinId, days));
  }

  quotesAt(atMs: number): Promise<OrderQuote[]> {
    return this.inner.quotesAt(atMs);
  }

  history(coinId: CoinId, days: number): Promise<PricePoint[]> {
    return this.keep(`history\u0000${coinId}\u0000${days}`, () => this.inner.history(coinId, days));
  }

  private stepNow(): number {
    return Math.floor(this.clock().getTime() / this.resolutionMs!);
  }

  private keep<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const step = this.stepNow();
    if (step !== this.step) {
      this.kept.clear();
      this.step = step;
    }
    const kept = this.kept.get(key);
    if (kept) return kept as Promise<T>;
    if (this.kept.size >= MARKET_ANSWERS_KEPT) return compute();
    const answer = compute().then(deepFreeze);
    this.kept.set(key, answer);
    // A failure is not kept (the next caller asks again), nor is an answer the clock left the step
    // during: it may belong to the next step, and requests still in this one must not see it.
    answer.then(
      () => {
        if (this.stepNow() !== step && this.kept.get(key) === answer) this.kept.delete(key);
      },
      () => {
        if (this.kept.get(key) === answer) this.kept.delete(key);
      },
    );
    return answer;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
