/**
 * The coin selector's list (spec section 2): every supported coin with its price and 24 h change,
 * filtered by the search box (name, symbol or id, any case, anywhere in the text), plus the Popular
 * row. Pure, so the filtering is tested without a DOM.
 */
import type { CoinPricesResponse, SupportedCoinsResponse } from '@papertrade/domain/market/contracts';

export const POPULAR_COIN_IDS = ['bitcoin', 'ethereum', 'binancecoin', 'cardano', 'solana'] as const;

export interface CoinRow {
  id: string;
  name: string;
  symbol: string;
  icon: string;
  color: string;
  /** Null until /api/coins/prices answers (or when it failed). */
  price: number | null;
  changePercent24h: number | null;
}

/** The supported coins in the server's order, each with its price when known. */
export function coinRows(supported: SupportedCoinsResponse, prices: CoinPricesResponse | undefined): CoinRow[] {
  return Object.entries(supported).map(([id, info]) => {
    const quote = prices?.[id as keyof CoinPricesResponse];
    return { id, ...info, price: quote?.price ?? null, changePercent24h: quote?.changePercent24h ?? null };
  });
}

export function filterCoins(rows: readonly CoinRow[], query: string): CoinRow[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...rows];
  return rows.filter((row) => row.name.toLowerCase().includes(needle) || row.symbol.toLowerCase().includes(needle) || row.id.includes(needle));
}

/** The Popular row: the five named coins that are supported, in the spec's order. */
export function popularCoins(rows: readonly CoinRow[]): CoinRow[] {
  return POPULAR_COIN_IDS.flatMap((id) => rows.find((row) => row.id === id) ?? []);
}
