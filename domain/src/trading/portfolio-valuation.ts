/**
 * What a portfolio is worth at given prices: pure, so the portfolio projection, the bot (equity for
 * position sizing), the risk monitor and the specs all compute it the same way.
 *
 * Every figure is a whole number of cents (returned as dollars, cents / 100), and the total is the
 * sum of the parts as shown: totalValue = cash + the positions' market values, to the cent, always.
 * Each part is rounded to the cent once, from exact integer micro-dollars, and the total is added
 * up from the rounded parts, never rounded separately (which is how balances drift from what they
 * list). Likewise totalPnl = realisedPnl + unrealisedPnl to the cent.
 */
import type { CoinId, CoinSymbol } from '../market/coins';
import { centsToUsd, microsToCents, notionalMicros, STARTING_CASH_MICROS, unitsToQuantity } from './money';
import type { PortfolioState, Position } from './portfolio';

export type Prices = Partial<Record<CoinSymbol, number>>;

export interface PositionValuation {
  positionId: string;
  coinId: CoinId;
  symbol: CoinSymbol;
  quantity: number;
  /** Fill prices weighted by quantity, fees excluded. */
  avgEntryPrice: number;
  /** The price valued at; the average entry price when none was given (priceKnown false). */
  currentPrice: number;
  priceKnown: boolean;
  /** What the quantity held cost, fees included. */
  costBasis: number;
  marketValue: number;
  /** marketValue - costBasis: net of the buying fees (not of the fee a sale would cost). */
  unrealisedPnl: number;
  /** unrealisedPnl as a percent of the cost basis. */
  unrealisedPnlPercent: number;
  openTradeIds: string[];
  openedAt: string;
}

export interface PortfolioValuation {
  startingCash: number;
  cash: number;
  positionsValue: number;
  totalValue: number;
  /** Realised since the portfolio opened or was last reset, net of fees. */
  realisedPnl: number;
  unrealisedPnl: number;
  /** totalValue - startingCash = realisedPnl + unrealisedPnl. */
  totalPnl: number;
  totalPnlPercent: number;
  positions: PositionValuation[];
}

/** Average entry price, USD per coin: entry notional (micros) over units. */
export function avgEntryPrice(position: Pick<Position, 'units' | 'entryNotionalMicros'>): number {
  // micros / 1e6 dollars over units / 1e8 coins
  return (position.entryNotionalMicros * 100) / position.units;
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

export function valuePortfolio(state: PortfolioState, prices: Prices): PortfolioValuation {
  const startingCents = microsToCents(state.status === 'open' ? state.startingCashMicros : STARTING_CASH_MICROS);
  const cashCents = state.status === 'open' ? microsToCents(state.cashMicros) : startingCents;
  const realisedCents = state.status === 'open' ? microsToCents(state.realisedPnlMicros) : 0;
  const held = state.status === 'open' ? Object.values(state.positions).filter((p): p is Position => p !== undefined) : [];

  let positionsCents = 0;
  const positions = held.map((p): PositionValuation => {
    const given = prices[p.symbol];
    const priceKnown = given !== undefined && Number.isFinite(given) && given > 0;
    const entry = avgEntryPrice(p);
    const currentPrice = priceKnown ? given : entry;
    const valueCents = microsToCents(notionalMicros(p.units, currentPrice));
    const basisCents = microsToCents(p.costBasisMicros);
    positionsCents += valueCents;
    return {
      positionId: p.positionId,
      coinId: p.coinId,
      symbol: p.symbol,
      quantity: unitsToQuantity(p.units),
      avgEntryPrice: entry,
      currentPrice,
      priceKnown,
      costBasis: centsToUsd(basisCents),
      marketValue: centsToUsd(valueCents),
      unrealisedPnl: centsToUsd(valueCents - basisCents),
      unrealisedPnlPercent: percent(valueCents - basisCents, basisCents),
      openTradeIds: p.openTradeIds,
      openedAt: p.openedAt,
    };
  });

  const totalCents = cashCents + positionsCents;
  const totalPnlCents = totalCents - startingCents;
  return {
    startingCash: centsToUsd(startingCents),
    cash: centsToUsd(cashCents),
    positionsValue: centsToUsd(positionsCents),
    totalValue: centsToUsd(totalCents),
    realisedPnl: centsToUsd(realisedCents),
    unrealisedPnl: centsToUsd(totalPnlCents - realisedCents),
    totalPnl: centsToUsd(totalPnlCents),
    totalPnlPercent: percent(totalPnlCents, startingCents),
    positions,
  };
}
