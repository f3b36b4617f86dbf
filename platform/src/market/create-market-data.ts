/**
 * Picks the market-data adapter the configuration names (MARKET_DATA, COINGECKO_URL); the simulated
 * market runs on the seed resolved at start (market-seed.ts: MARKET_SEED or the embedded data folder's).
 */
import type { Config } from '../config/config';
import { CoinGeckoMarketData } from './coingecko-market-data';
import type { MarketData } from './market-data';
import { SimulatedMarketData } from './simulated-market-data';

export function createMarketData(config: Pick<Config, 'MARKET_DATA' | 'COINGECKO_URL'>, clock: () => Date, marketSeed: string | undefined): MarketData {
  switch (config.MARKET_DATA) {
    case 'simulated':
      if (marketSeed === undefined) throw new Error('the simulated market needs a seed (resolveMarketSeed)');
      return new SimulatedMarketData(marketSeed, clock);
    case 'coingecko':
      return new CoinGeckoMarketData({ baseUrl: config.COINGECKO_URL, clock });
    default: {
      const unknown: never = config.MARKET_DATA;
      throw new Error(`unknown MARKET_DATA ${String(unknown)}`);
    }
  }
}
