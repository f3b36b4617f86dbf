/**
 * Money and quantities of the paper portfolio, as integers so the balance can never drift from
 * what the trades say.
 *
 * - Dollars are integer micro-dollars (1 USD = 1,000,000 micros) everywhere in events and state:
 *   a fee of 0.1 percent on a one-dollar trade is still exact, and adding up thousands of trades is
 *   integer addition. Each event records the integer amounts it moved (notional, fee, cost basis
 *   closed, realised P&L), so `evolve` only adds and subtracts them: later changes to the rounding
 *   here can never reinterpret history.
 * - Coin quantities are integer units of 1e-8 coin (a satoshi for bitcoin), shown as decimals.
 * - Prices are whatever the market said (a float): a price times a quantity is rounded once, to the
 *   micro-dollar, when a trade is decided, and that integer is what the event records.
 *
 * Every integer stays below 2^53 (Number.MAX_SAFE_INTEGER, about 9e9 USD in micros), which the
 * command validation guarantees for anything that can reach the state.
 */
import { ValidationError } from '../shared/errors';

export const MICROS_PER_USD = 1_000_000;
export const UNITS_PER_COIN = 100_000_000;
const MICROS_PER_CENT = 10_000;

/** The paper cash every portfolio opens (and resets) with. */
export const STARTING_CASH_USD = 10_000;
export const STARTING_CASH_MICROS = STARTING_CASH_USD * MICROS_PER_USD;

/** The simulated fee on every fill (buy, sell, stop loss, take profit): 0.1 percent of the notional. */
export const TRADE_FEE_RATE = 0.001;

/** Rounds half away from zero, and never answers -0 (which deep equality tells apart from 0). */
function roundHalfAway(value: number): number {
  const rounded = Math.sign(value) * Math.round(Math.abs(value));
  return rounded === 0 ? 0 : rounded;
}

/** A coin quantity (decimal) in integer units of 1e-8; the nearest unit. */
export function quantityToUnits(quantity: number): number {
  return roundHalfAway(quantity * UNITS_PER_COIN);
}

/** Integer units back to a decimal quantity (exact to 8 decimals for any safe integer). */
export function unitsToQuantity(units: number): number {
  return units / UNITS_PER_COIN;
}

/** The value in micro-dollars of `units` of a coin at `price` USD, rounded once to the micro. */
export function notionalMicros(units: number, price: number): number {
  // units / 1e8 coins * price USD * 1e6 micros = units * price / 100
  return roundHalfAway((units * price) / (UNITS_PER_COIN / MICROS_PER_USD));
}

/** The fee on a fill of this notional. */
export function feeMicros(notional: number): number {
  return feeMicrosAt(notional, TRADE_FEE_RATE);
}

/** The fee on a fill of this notional at another rate (an arbitrage leg pays its exchange's: exchanges.ts). */
export function feeMicrosAt(notional: number, rate: number): number {
  return roundHalfAway(notional * rate);
}

/**
 * The most whole units, at most `guess`, for which `fits` holds, where `fits` holds for every count up
 * to some largest one and for none above it (a fill's notional and fee only grow with its units), and
 * for 0. A sizing's guess from the rates is at most a few units off after the micro-dollar roundings,
 * but a coin under a dollar can be hundreds off: stepping down one at a time from a far guess is
 * unbounded, so this steps down by doubling strides, then halves the gap (about 2 x log2 of the
 * distance checks, at most about 110 for any safe integer).
 */
export function mostUnitsFitting(guess: number, fits: (units: number) => boolean): number {
  if (!(guess > 0)) return 0;
  if (fits(guess)) return guess;
  // Invariant: `fits(hi)` is false, and `fits(lo)` is true (lo = 0 is taken to fit).
  let hi = guess;
  let stride = 1;
  let lo = Math.max(0, hi - stride);
  while (lo > 0 && !fits(lo)) {
    hi = lo;
    stride *= 2;
    lo = Math.max(0, hi - stride);
  }
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Micro-dollars to whole cents (half away from zero): every figure shown is a number of cents. */
export function microsToCents(micros: number): number {
  return roundHalfAway(micros / MICROS_PER_CENT);
}

/** Whole cents to dollars, for display (cents / 100 is the nearest double to the decimal). */
export function centsToUsd(cents: number): number {
  return cents / 100;
}

/** Micro-dollars to dollars without rounding to the cent (fees and fills of small trades). */
export function microsToUsd(micros: number): number {
  return micros / MICROS_PER_USD;
}

export function usdToMicros(usd: number): number {
  return roundHalfAway(usd * MICROS_PER_USD);
}

/** The largest coin quantity a command may carry: its units and its notional stay safe integers. */
export const MAX_QUANTITY = 10_000_000;

/** Positive and finite, or a ValidationError naming the field. */
export function requirePositiveFinite(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ValidationError(`${field} must be a positive finite number, got ${String(value)}`, { field });
  }
  return value;
}

/** A quantity as integer units: positive, finite, at most MAX_QUANTITY, and at least one unit. */
export function requireQuantityUnits(field: string, quantity: number): number {
  requirePositiveFinite(field, quantity);
  if (quantity > MAX_QUANTITY) throw new ValidationError(`${field} must be at most ${MAX_QUANTITY}, got ${quantity}`, { field });
  const units = quantityToUnits(quantity);
  if (units < 1) throw new ValidationError(`${field} must be at least ${unitsToQuantity(1)} (8 decimals), got ${quantity}`, { field });
  return units;
}
