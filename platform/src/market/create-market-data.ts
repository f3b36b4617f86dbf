/** Picks the market-data adapter the configuration names (MARKET_DATA, MARKET_SEED, COINGECKO_URL). */
import type { Config } from '../config/config';
import { CoinGeckoMarketData } from './coingecko-market-data';
import type { MarketData } from './market-data';
import { SimulatedMarketData } from './simulated-market-data';

export function createMarketData(config: Pick<Config, 'MARKET_DATA' | 'MARKET_SEED' | 'COINGECKO_URL'>, clock: () => Date): MarketData {
  switch (config.MARKET_DATA) {
    case 'simulated':
      return new SimulatedMarketData(config.MARKET_SEED, clock);
    case 'coingecko':
      return new CoinGeckoMarketData({ baseUrl: config.COINGECKO_URL, clock });
    default: {
      const unknown: never = config.MARKET_DATA;
      throw new Error(`unknown MARKET_DATA ${String(unknown)}`);
    }
  }
}
