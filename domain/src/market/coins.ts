/**
 * The ten coins the product supports (spec section 3: "Coin id to symbol"), what the dashboard shows
 * of each (name, symbol, icon, color), and what the simulated market needs to make each one look like
 * itself (a starting price, an annualised volatility, its correlation to bitcoin, a typical daily
 * volume). Both market-data adapters serve exactly this list, so a coin id is valid everywhere or
 * nowhere.
 *
 * The simulation figures are round numbers of the right size for these coins in 2024-2025, not
 * quotes: a paper-trading simulator needs prices that look plausible, not today's price.
 */
import { z } from 'zod';

export const coinIds = [
  'ethereum',
  'bitcoin',
  'binancecoin',
  'cardano',
  'solana',
  'polygon',
  'chainlink',
  'avalanche-2',
  'polkadot',
  'uniswap',
] as const;
export type CoinId = (typeof coinIds)[number];

export const coinSymbols = ['ETH', 'BTC', 'BNB', 'ADA', 'SOL', 'MATIC', 'LINK', 'AVAX', 'DOT', 'UNI'] as const;
export type CoinSymbol = (typeof coinSymbols)[number];

export const DEFAULT_COIN_ID: CoinId = 'ethereum';
export const DEFAULT_COIN_SYMBOL: CoinSymbol = 'ETH';

export const coinIdSchema = z.enum(coinIds, { error: (issue) => `unknown coin id ${JSON.stringify(issue.input)}` });
/** A symbol in any case ("eth", "Eth"), normalised to upper case. */
export const coinSymbolSchema = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(coinSymbols, { error: (issue) => `unknown coin symbol ${JSON.stringify(issue.input)}` }));

export interface CoinSimulation {
  /** Price in USD at the simulation's epoch; the simulated price mean-reverts slowly towards it. */
  startingPriceUsd: number;
  /** Annualised volatility of log returns (0.55 = 55 % a year). */
  annualVolatility: number;
  /** Correlation of the coin's return shocks with bitcoin's (1 for bitcoin itself). */
  btcCorrelation: number;
  /** Typical traded volume in USD per day. */
  dailyVolumeUsd: number;
}

export interface Coin {
  id: CoinId;
  name: string;
  symbol: CoinSymbol;
  /** A short glyph the client can show without fetching an image. */
  icon: string;
  /** Brand colour, #rrggbb. */
  color: string;
  simulation: CoinSimulation;
}

export const coins: readonly Coin[] = [
  coin('ethereum', 'Ethereum', 'ETH', 'Ξ', '#627EEA', { startingPriceUsd: 3200, annualVolatility: 0.75, btcCorrelation: 0.82, dailyVolumeUsd: 15e9 }),
  coin('bitcoin', 'Bitcoin', 'BTC', '₿', '#F7931A', { startingPriceUsd: 65000, annualVolatility: 0.6, btcCorrelation: 1, dailyVolumeUsd: 30e9 }),
  coin('binancecoin', 'BNB', 'BNB', '◆', '#F3BA2F', { startingPriceUsd: 580, annualVolatility: 0.72, btcCorrelation: 0.74, dailyVolumeUsd: 1.5e9 }),
  coin('cardano', 'Cardano', 'ADA', '₳', '#0033AD', { startingPriceUsd: 0.45, annualVolatility: 0.85, btcCorrelation: 0.77, dailyVolumeUsd: 4e8 }),
  coin('solana', 'Solana', 'SOL', '◎', '#9945FF', { startingPriceUsd: 150, annualVolatility: 0.95, btcCorrelation: 0.76, dailyVolumeUsd: 3e9 }),
  coin('polygon', 'Polygon', 'MATIC', '⬡', '#8247E5', { startingPriceUsd: 0.55, annualVolatility: 0.9, btcCorrelation: 0.75, dailyVolumeUsd: 3e8 }),
  coin('chainlink', 'Chainlink', 'LINK', '⬢', '#2A5ADA', { startingPriceUsd: 14, annualVolatility: 0.85, btcCorrelation: 0.76, dailyVolumeUsd: 5e8 }),
  coin('avalanche-2', 'Avalanche', 'AVAX', '▲', '#E84142', { startingPriceUsd: 28, annualVolatility: 0.95, btcCorrelation: 0.76, dailyVolumeUsd: 4e8 }),
  coin('polkadot', 'Polkadot', 'DOT', '●', '#E6007A', { startingPriceUsd: 6.5, annualVolatility: 0.8, btcCorrelation: 0.77, dailyVolumeUsd: 2.5e8 }),
  coin('uniswap', 'Uniswap', 'UNI', '🦄', '#FF007A', { startingPriceUsd: 8, annualVolatility: 0.9, btcCorrelation: 0.75, dailyVolumeUsd: 2e8 }),
];

function coin(id: CoinId, name: string, symbol: CoinSymbol, icon: string, color: string, simulation: CoinSimulation): Coin {
  return { id, name, symbol, icon, color, simulation };
}

const byId = new Map<string, Coin>(coins.map((c) => [c.id, c]));
const bySymbol = new Map<string, Coin>(coins.map((c) => [c.symbol, c]));

/** The coin with this id, or undefined. Ids are CoinGecko's, lower case, matched exactly. */
export function findCoinById(id: string): Coin | undefined {
  return byId.get(id);
}

/** The coin with this symbol in any case ("eth", "ETH"), or undefined. */
export function findCoinBySymbol(symbol: string): Coin | undefined {
  // A symbol already in its catalogue form (every internal caller's) is found without a new string.
  return bySymbol.get(symbol) ?? bySymbol.get(symbol.trim().toUpperCase());
}

export function coinById(id: CoinId): Coin {
  const found = byId.get(id);
  if (!found) throw new Error(`no coin ${id}`);
  return found;
}

/** Beta of the coin's returns to bitcoin's: correlation times the ratio of volatilities. */
export function btcBeta(c: Coin): number {
  return (c.simulation.btcCorrelation * c.simulation.annualVolatility) / coinById('bitcoin').simulation.annualVolatility;
}

/** One OHLCV candle. `time` is the open time (ms since the Unix epoch, UTC); volume in USD. */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export const candleSchema = z.object({
  time: z.number().int(),
  open: z.number().positive(),
  high: z.number().positive(),
  low: z.number().positive(),
  close: z.number().positive(),
  volume: z.number().nonnegative(),
});

/** A price at a moment: ms since the Unix epoch, USD. */
export interface PricePoint {
  time: number;
  price: number;
}

/**
 * Half the bid-ask spread of each coin, in basis points of the mid price (1 bp = 0.01 %): what a
 * market order pays on top of the mid (a buy at the ask, a sell at the bid). The figures are
 * representative, not live data: round numbers of the size of the typical top-of-book spreads of the
 * coins' main USD and USDT spot books on the large exchanges (Binance, Coinbase, Kraken) in 2024-2025,
 * as market-quality reports (Kaiko's exchange rankings among them) show them: about 1 bp for bitcoin
 * and ether, 2 bp for BNB and solana, 4 to 6 bp for the smaller coins. Halved here. The trading engine
 * (domain/src/trading/engine/fills.ts) charges them on every fill.
 */
export const HALF_SPREAD_BPS: Readonly<Record<CoinId, number>> = Object.freeze({
  bitcoin: 0.5,
  ethereum: 0.5,
  binancecoin: 1,
  solana: 1,
  cardano: 2,
  chainlink: 2,
  'avalanche-2': 2,
  polkadot: 2.5,
  polygon: 2.5,
  uniswap: 3,
});

/** A coin's half spread as a fraction of the mid price (0.5 bp = 0.00005). */
export function halfSpreadOf(id: CoinId): number {
  return HALF_SPREAD_BPS[id] / 10_000;
}
