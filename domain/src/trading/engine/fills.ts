/**
 * Fills like an exchange's (issue 17, section 2; DESIGN.md section 9): what an order pays on top of
 * the market's price. Pure arithmetic, shared by the portfolio decider (which turns a mid price into
 * the fill price), the trading bot (which sizes its orders by it) and the paper engine.
 *
 * A market order at mid price m (the path's tick at the fill, or the live price of a source without
 * ticks) fills at
 *     BUY:  m x (1 + halfSpread + impact)        SELL: m x (1 - halfSpread - impact)
 * and then pays the fee (TRADE_FEE_RATE, money.ts) on the notional at that price.
 *
 * - halfSpread: the coin's half bid-ask spread from the coin catalogue (HALF_SPREAD_BPS in
 *   market/coins.ts: representative top-of-book figures, 0.5 bp for bitcoin and ether to 3 bp for
 *   uniswap; not live data).
 * - impact, the square-root model of market impact (Almgren, Thum, Hauptmann and Li 2005; Toth et al.
 *   2011: the price moves by about Y x sigma x sqrt(Q / V), Y of order one, sigma and V over the same
 *   horizon):
 *       impact = IMPACT_COEFFICIENT x sigmaMinute x sqrt(notional / minuteVolume)
 *   with IMPACT_COEFFICIENT (Y) = 1; sigmaMinute the coin's average one-minute standard deviation of
 *   log returns (its annual volatility from the catalogue / sqrt(365 x 1440): 0.083 % for bitcoin,
 *   0.13 % for solana); notional = the order's quantity x mid (USD); minuteVolume = the USD traded in
 *   the last complete minute before the fill (the path's candle; a source without minute volumes
 *   gives its 24-hour volume / 1440, or the catalogue's typical daily volume / 1440). Capped at
 *   MAX_IMPACT (10 %), so a sale never prices at or below zero. For scale, at the typical minute's
 *   volume: the bot's $500 order pays 0.04 bp on bitcoin and 0.7 bp on uniswap; a $10,000 order
 *   0.18 bp and 3.3 bp (the half spread is 0.5 and 3 bp).
 *
 * The figures are recorded on the trade (`Execution`): the mid, the half spread and the impact as
 * fractions of the mid, when it filled, and for a bot order when it was meant to fill.
 */
import { parseTime } from '../../shared/time-memo';
import { coinById, halfSpreadOf, type CoinId } from '../../market/coins';

/** Y of the square-root law (see the module comment). */
export const IMPACT_COEFFICIENT = 1;
/** The most impact an order pays, a fraction of the mid. */
export const MAX_IMPACT = 0.1;
const MINUTES_PER_YEAR = 365 * 1440;

export type OrderSide = 'BUY' | 'SELL';

/** What an order met (recorded on SimulatedTradePlaced and PositionClosed as `execution`). */
export interface Execution {
  /** The market's price when it filled, USD per coin (the tick's; a source without ticks: its live price). */
  mid: number;
  /** Half the bid-ask spread paid, a fraction of `mid`. */
  halfSpread: number;
  /** The price impact paid, a fraction of `mid`. */
  impact: number;
  /** When it filled, ISO-8601: the tick's time (a source without ticks: when its price was observed). */
  filledAt: string;
  /** A bot order: the first tick at or after its signal's time plus BOT_LATENCY_MS (bot-timing.ts). */
  intendedAt?: string;
  /** A bot order: filledAt - intendedAt, ms (a bot that handled its signal late fills at the live tick). */
  delayMs?: number;
  /** A stop loss or take profit: the level the tick crossed, USD per coin. */
  level?: number;
}

/** The coin's average one-minute standard deviation of log returns. */
export function sigmaPerMinute(coinId: CoinId): number {
  return coinById(coinId).simulation.annualVolatility / Math.sqrt(MINUTES_PER_YEAR);
}

/** The catalogue's typical USD volume of a minute, for a source that gives none. */
export function typicalMinuteVolumeUsd(coinId: CoinId): number {
  return coinById(coinId).simulation.dailyVolumeUsd / 1440;
}

/** The square-root impact of an order worth `notionalUsd` against a minute of `minuteVolumeUsd`, a fraction of the mid. */
export function priceImpact(coinId: CoinId, notionalUsd: number, minuteVolumeUsd: number): number {
  if (!(notionalUsd > 0)) return 0;
  const volume = minuteVolumeUsd > 0 && Number.isFinite(minuteVolumeUsd) ? minuteVolumeUsd : typicalMinuteVolumeUsd(coinId);
  return Math.min(MAX_IMPACT, IMPACT_COEFFICIENT * sigmaPerMinute(coinId) * Math.sqrt(notionalUsd / volume));
}

/** The fill price of a market order at mid `mid`: a buy pays the half spread and the impact above it, a sell below. */
export function fillPrice(mid: number, side: OrderSide, halfSpread: number, impact: number): number {
  return side === 'BUY' ? mid * (1 + halfSpread + impact) : mid * (1 - halfSpread - impact);
}

/** The fill of `quantity` coins of `coinId` at mid `mid`: its price and what it paid for it (fractions of the mid). */
export function marketFill(coinId: CoinId, side: OrderSide, mid: number, quantity: number, minuteVolumeUsd: number): { price: number; halfSpread: number; impact: number } {
  const halfSpread = halfSpreadOf(coinId);
  const impact = priceImpact(coinId, quantity * mid, minuteVolumeUsd);
  return { price: fillPrice(mid, side, halfSpread, impact), halfSpread, impact };
}

/**
 * Where an order met the market, as the caller read it from the path (or the live source) and passes
 * it in the command with the mid as its price: the decider prices the fill from it (the half spread
 * from the catalogue, the impact from the minute's volume), so a replay of the same commands, or a
 * backtest reading the same ticks, fills at the same prices.
 */
export interface FillMarket {
  /** When the mid was the market's price, ISO-8601 (the tick's time). */
  filledAt: string;
  /** The USD traded in the last complete minute before it (the impact's minute volume). */
  minuteVolumeUsd: number;
  /** A bot order: when it was meant to fill (bot-timing.ts). */
  intendedAt?: string;
  /** A stop loss or take profit: the level crossed. */
  level?: number;
}

/** The fill and its record for `quantity` coins at mid `mid` met as `market` says. */
export function executionOf(coinId: CoinId, side: OrderSide, mid: number, quantity: number, market: FillMarket): { price: number; execution: Execution } {
  const fill = marketFill(coinId, side, mid, quantity, market.minuteVolumeUsd);
  const execution: Execution = { mid, halfSpread: fill.halfSpread, impact: fill.impact, filledAt: market.filledAt };
  if (market.intendedAt !== undefined) {
    execution.intendedAt = market.intendedAt;
    execution.delayMs = parseTime(market.filledAt) - parseTime(market.intendedAt);
  }
  if (market.level !== undefined) execution.level = market.level;
  return { price: fill.price, execution };
}
