/**
 * The simulated market behind the market-data port: the domain's MarketSimulation for the
 * deployment's secret seed (market-seed.ts: its SHA-256 digest is the key), read at the injected
 * clock's time and never after it: a price is the tick's at now, a chart ends at now's tick, so no
 * answer holds a price from the future. Every process with the same seed and clock serves the same
 * prices, and a backtest over the same minutes sees the same market (domain/src/market/simulation.ts).
 * The seed itself is not kept here, only the key derived from it.
 *
 * `ticks` is the path bounded by the clock (a tick after now's is refused), and `quotesAt` reads it
 * the way the trading engine does (domain/src/trading/engine/price-ticks.ts quoteAt), so a live fill
 * and a backtest's fill at the same tick see the same mid and minute volume.
 */
import { coins, findCoinById, type CoinId, type PricePoint } from '@papertrade/domain/market/coins';
import { MarketSimulation, TICK_MS, type CandleSeries, type Quote } from '@papertrade/domain/market/simulation';
import { tickAt } from '@papertrade/domain/market/market-path';
import { pathTicks, quoteAt, type PriceTicks } from '@papertrade/domain/trading/engine/price-ticks';
import { requireCoinId, requireDays, type CoinPrice, type MarketData, type OrderQuote } from './market-data';
import { marketKeyFromSeed } from './market-seed';

export class SimulatedMarketData implements MarketData {
  readonly source = 'simulated' as const;
  /**
   * Quotes and charts are the path's last tick at the clock's time (a tick every TICK_MS = 5 s from
   * an epoch on the 5 s grid), so an answer holds until the next tick (cached-market-data.ts keeps it
   * that long). Change it with the path's tick: cached-market-data.unit.spec.ts checks it.
   */
  readonly resolutionMs = TICK_MS;
  readonly simulation: MarketSimulation;
  /**
   * The simulation's key (the seed's digest), for worker threads that build their own copy of the same
   * path (the backtester's). As secret as the seed: never logged, never sent anywhere but a thread.
   */
  readonly key: Uint32Array;
  readonly ticks: PriceTicks;

  constructor(
    seed: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.key = marketKeyFromSeed(seed);
    this.simulation = new MarketSimulation(this.key);
    this.ticks = pathTicks(this.simulation.path, () => tickAt(this.now()));
  }

  supportedCoins() {
    return coins;
  }

  async prices(): Promise<CoinPrice[]> {
    const now = this.now();
    return this.simulation.quotes(now).map(toCoinPrice);
  }

  async price(coinId: CoinId): Promise<CoinPrice> {
    return toCoinPrice(this.simulation.quote(requireCoinId(coinId), this.now()));
  }

  async candles(coinId: CoinId, days: number, endMs?: number): Promise<CandleSeries> {
    const now = this.now();
    if (endMs !== undefined && !(endMs <= now)) throw new RangeError(`a chart ending at ${endMs} has not happened yet`);
    return this.simulation.chart(requireCoinId(coinId), requireDays(days), endMs ?? now);
  }

  async history(coinId: CoinId, days: number): Promise<PricePoint[]> {
    return this.simulation.history(requireCoinId(coinId), requireDays(days), this.now());
  }

  async quotesAt(atMs: number): Promise<OrderQuote[]> {
    if (!Number.isFinite(atMs)) throw new RangeError(`not a time: ${atMs}`);
    const tick = tickAt(atMs); // refused by the bounded ticks when after now
    return coins.map((c) => {
      const q = quoteAt(this.ticks, c.id, tick);
      return { coinId: c.id, symbol: c.symbol, price: q.mid, filledAt: new Date(q.timeMs).toISOString(), minuteVolumeUsd: q.minuteVolumeUsd };
    });
  }

  private now(): number {
    return this.clock().getTime();
  }
}

function toCoinPrice(quote: Quote): CoinPrice {
  return {
    coinId: quote.coinId,
    symbol: findCoinById(quote.coinId)!.symbol,
    price: quote.price,
    change24h: quote.change24h,
    changePercent24h: quote.changePercent24h,
    volume24h: quote.volume24h,
    at: new Date(quote.at).toISOString(),
  };
}
