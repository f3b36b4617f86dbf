/**
 * What a portfolio is worth at given prices: pure, so the portfolio projection, the bot (equity for
 * position sizing), the risk monitor and the specs all compute it the same way.
 *
 * Every dollar figure is a whole number of cents (returned as dollars, cents / 100), and a total is
 * the sum of its parts as shown, never rounded separately (which is how balances drift from what they
 * list). The parts are what the trade list shows: each lot (an open BUY's remainder) is valued and
 * costed to the cent on its own, and each closing trade's realised P&L is rounded on its own. So:
 * - totalValue = cash + positionsValue, positionsValue = the positions' market values, a position's
 *   market value and cost basis = its lots', unrealisedPnl = marketValue - costBasis, all to the cent;
 * - realisedPnl = the closing trades' pnl since the opening or last reset (PortfolioState's
 *   realisedPnlCents), unrealisedPnl = the open BUYs' pnl, totalPnl = realisedPnl + unrealisedPnl:
 *   the sum of the trades' pnl, to the cent;
 * - totalValue - startingCash is the same amount in exact micro-dollars, but rounded once rather than
 *   per trade, so it may differ from totalPnl by the roundings: at most half a cent for the cash,
 *   each closing trade since the last reset and each lot.
 * Percentages are computed from the exact micro-dollars (see each field).
 */
import type { CoinId, CoinSymbol } from '../market/coins';
import { centsToUsd, microsToCents, notionalMicros, STARTING_CASH_MICROS, unitsToQuantity } from './money';
import { lotsOf, realisedCentsOf, type Lot, type PortfolioState, type Position } from './portfolio';

export type Prices = Partial<Record<CoinSymbol, number>>;

export interface PositionValuation {
  positionId: string;
  coinId: CoinId;
  symbol: CoinSymbol;
  quantity: number;
  /** The lots' fill prices weighted by their quantities, fees excluded (the fill price itself for one lot). */
  avgEntryPrice: number;
  /** The price valued at; the average entry price when none was given (priceKnown false). */
  currentPrice: number;
  priceKnown: boolean;
  /** What the quantity held cost, fees included: the lots' costs, each to the cent. */
  costBasis: number;
  /** The lots' values at currentPrice, each to the cent. */
  marketValue: number;
  /** marketValue - costBasis: net of the buying fees (not of the fee a sale would cost). */
  unrealisedPnl: number;
  /** The exact unrealised P&L (micro-dollars) as a percent of the exact cost basis, unrounded: round it when sending. */
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
  /** realisedPnl + unrealisedPnl (see the module comment). */
  totalPnl: number;
  /** The exact total P&L (micro-dollars) as a percent of the starting cash, rounded to 2 decimals. */
  totalPnlPercent: number;
  positions: PositionValuation[];
}

/**
 * Average entry price, USD per coin: the lots' fill prices weighted by their units. Lots all bought at
 * one price give that price exactly (not a notional rounded to the micro-dollar divided back).
 */
export function avgEntryPrice(position: Omit<Position, 'lots'> & { lots?: Lot[] }): number {
  return averagePrice(lotsOf(position).map((l) => ({ units: l.units, price: l.price })));
}

/** Prices weighted by units; the price itself when there is only one. */
export function averagePrice(parts: ReadonlyArray<{ units: number; price: number }>): number {
  const first = parts[0];
  if (!first) return 0;
  if (parts.every((p) => p.price === first.price)) return first.price;
  const units = parts.reduce((sum, p) => sum + p.units, 0);
  return parts.reduce((sum, p) => sum + p.units * p.price, 0) / units;
}

/** part / whole as a percent, exact (0 of a zero whole). */
export const exactPercent = (part: number, whole: number) => (whole === 0 ? 0 : (part * 100) / whole);

/** A percent rounded to 2 decimals, half away from zero, as it is sent. */
export function roundPercent(value: number): number {
  const hundredths = Math.sign(value) * Math.round(Math.abs(value) * 100);
  return hundredths === 0 ? 0 : hundredths / 100;
}

/** A price given for a coin, when it can value it (finite and above zero); otherwise the coin is valued at its average entry. */
const usablePrice = (given: number | undefined): number | undefined => (given !== undefined && Number.isFinite(given) && given > 0 ? given : undefined);

/**
 * valuePortfolio(state, prices).totalValue without the rest of the valuation: the bot and the risk
 * rules ask for the total alone, two or three times per signal. The same cents, summed the same way.
 */
export function portfolioTotalValue(state: PortfolioState, prices: Prices): number {
  if (state.status !== 'open') return centsToUsd(microsToCents(STARTING_CASH_MICROS));
  let totalCents = microsToCents(state.cashMicros);
  for (const symbol in state.positions) {
    const p = state.positions[symbol as CoinSymbol];
    if (p === undefined) continue;
    const currentPrice = usablePrice(prices[p.symbol]) ?? avgEntryPrice(p);
    for (const lot of lotsOf(p)) totalCents += microsToCents(notionalMicros(lot.units, currentPrice));
  }
  return centsToUsd(totalCents);
}

export function valuePortfolio(state: PortfolioState, prices: Prices): PortfolioValuation {
  const startingMicros = state.status === 'open' ? state.startingCashMicros : STARTING_CASH_MICROS;
  const startingCents = microsToCents(startingMicros);
  const cashMicros = state.status === 'open' ? state.cashMicros : startingMicros;
  const cashCents = microsToCents(cashMicros);
  const realisedCents = state.status === 'open' ? realisedCentsOf(state) : 0;
  const held = state.status === 'open' ? Object.values(state.positions).filter((p): p is Position => p !== undefined) : [];

  let positionsCents = 0;
  let basisTotalCents = 0;
  let positionsMicros = 0;
  const positions = held.map((p): PositionValuation => {
    const given = usablePrice(prices[p.symbol]);
    const priceKnown = given !== undefined;
    const entry = avgEntryPrice(p);
    const currentPrice = given ?? entry;
    let valueCents = 0;
    let basisCents = 0;
    let valueMicros = 0;
    for (const lot of lotsOf(p)) {
      const lotValue = notionalMicros(lot.units, currentPrice);
      valueMicros += lotValue;
      valueCents += microsToCents(lotValue);
      basisCents += microsToCents(lot.costMicros);
    }
    positionsCents += valueCents;
    basisTotalCents += basisCents;
    positionsMicros += valueMicros;
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
      unrealisedPnlPercent: exactPercent(valueMicros - p.costBasisMicros, p.costBasisMicros),
      openTradeIds: p.openTradeIds,
      openedAt: p.openedAt,
    };
  });

  const totalCents = cashCents + positionsCents;
  const unrealisedCents = positionsCents - basisTotalCents;
  return {
    startingCash: centsToUsd(startingCents),
    cash: centsToUsd(cashCents),
    positionsValue: centsToUsd(positionsCents),
    totalValue: centsToUsd(totalCents),
    realisedPnl: centsToUsd(realisedCents),
    unrealisedPnl: centsToUsd(unrealisedCents),
    totalPnl: centsToUsd(realisedCents + unrealisedCents),
    totalPnlPercent: roundPercent(exactPercent(cashMicros + positionsMicros - startingMicros, startingMicros)),
    positions,
  };
}
