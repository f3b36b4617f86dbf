/**
 * The coin a request names, for every route that takes one (market, signals, indicators): by id in
 * a path (exactly), by symbol in a query (any case), or a 404 that names what was asked for and what
 * is supported. Client text is quoted, escaped (NUL and friends) and cut short in those messages.
 */
import { coinIds, coinSymbols, findCoinById, findCoinBySymbol, type Coin } from '@papertrade/domain/market/coins';
import { NotFoundError } from '@papertrade/domain/shared/errors';

/** Client text in a message: quoted, escaped, and cut short. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

export function coinById(raw: string | undefined): Coin {
  const coin = raw === undefined ? undefined : findCoinById(raw);
  if (!coin) throw new NotFoundError(`Unknown coin id ${quoted(raw ?? '')}; supported: ${coinIds.join(', ')}`);
  return coin;
}

export function coinBySymbol(symbol: string): Coin {
  const coin = findCoinBySymbol(symbol);
  if (!coin) throw new NotFoundError(`Unknown coin symbol ${quoted(symbol)}; supported: ${coinSymbols.join(', ')}`);
  return coin;
}
