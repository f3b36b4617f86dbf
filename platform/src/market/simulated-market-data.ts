/**
 * The simulated market behind the market-data port: the domain's MarketSimulation for MARKET_SEED,
 * read at the injected clock's time. Every process with the same seed and clock serves the same
 * prices, and a backtest over the same minutes sees the same market (domain/src/market/simulation.ts).
 */
import { coins, findCoinById, type CoinId, type PricePoint } from '@papertrade/domain/market/coins';
import { MarketSimulation, type CandleSeries, type Quote } from '@papertrade/domain/market/simulation';
import { requireCoinId, requireDays, type CoinPrice, type MarketData } from './market-data';

export class SimulatedMarketData implements MarketData {
  readonly source = 'simulated' as const;
  /**
   * Quotes and charts are read at the clock's minute (MarketSimulation.quote and chart round `now`
   * down to it), so an answer holds for the whole minute (cached-market-data.ts keeps it that long).
   * Change it with the simulation's resolution: cached-market-data.unit.spec.ts checks it.
   */
  readonly resolutionMs = 60_000;
  readonly simulation: MarketSimulation;

  constructor(
    seed: number,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.simulation = new MarketSimulation(seed);
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
