/**
 * The simulated market behind the market-data port: the domain's MarketSimulation for the
 * deployment's secret seed (market-seed.ts: its SHA-256 digest is the key), read at the injected
 * clock's time and never after it: a price is the tick's at now, a chart ends at now's tick, so no
 * answer holds a price from the future. Every process with the same seed and clock serves the same
 * prices, and a backtest over the same minutes sees the same market (domain/src/market/simulation.ts).
 * The seed itself is not kept here, only the key derived from it.
 */
import { coins, findCoinById, type CoinId, type PricePoint } from '@papertrade/domain/market/coins';
import { MarketSimulation, TICK_MS, type CandleSeries, type Quote } from '@papertrade/domain/market/simulation';
import { requireCoinId, requireDays, type CoinPrice, type MarketData } from './market-data';
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

  constructor(
    seed: string,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.simulation = new MarketSimulation(marketKeyFromSeed(seed));
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

  async candles(coinId: CoinId, days: number): Promise<CandleSeries> {
    return this.simulation.chart(requireCoinId(coinId), requireDays(days), this.now());
  }

  async history(coinId: CoinId, days: number): Promise<PricePoint[]> {
    return this.simulation.history(requireCoinId(coinId), requireDays(days), this.now());
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
