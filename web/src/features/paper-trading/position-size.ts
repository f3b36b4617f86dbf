/**
 * Whether a manual BUY would make the coin's position larger than the user's maximum position size,
 * measured as the risk monitor measures it (domain/src/trading/risk-watch.ts): the position's
 * market value as a percent of the portfolio's total value. The maximum is the risk parameters'
 * maxPositionSize (Risk Management > Parameters), the one the monitor's position-size alert reads,
 * not the bot settings' field of the same name (DESIGN.md section 9 makes them one profile later).
 *
 * An estimate at the current price: the fill adds a half-spread and the fee, which move the share by
 * a tenth of a percent or so. The warning comes at the maximum itself; the monitor alerts only past
 * it by a tenth (its POSITION_SIZE_TOLERANCE), which is for positions that drift with the price.
 */
import { formatPercent, formatPlainPercent } from '../../lib/number-format';

export interface PositionSizeInput {
  /** Coins to buy. */
  amount: number;
  /** The coin's price now. */
  price: number;
  /** Coins of it held already. */
  heldQuantity: number;
  /** The portfolio's total value now (cash + positions at market). */
  totalValue: number;
  /** The maximum position size, percent of the total value. */
  maxPositionPercent: number;
}

export interface PositionSizeWarning {
  /** The position's share of the portfolio after the BUY, percent. */
  percent: number;
  maxPercent: number;
}

export function positionSizeWarning({ amount, price, heldQuantity, totalValue, maxPositionPercent }: PositionSizeInput): PositionSizeWarning | null {
  if (!(totalValue > 0) || !(amount > 0) || !(price > 0)) return null;
  // Buying moves cash into the coin: the total stays (fees aside), the position grows.
  const percent = ((heldQuantity + amount) * price * 100) / totalValue;
  // A position exactly at the maximum is allowed; the epsilon keeps float noise from saying otherwise.
  return percent > maxPositionPercent + 1e-9 ? { percent, maxPercent: maxPositionPercent } : null;
}

/** "This position would be 20.7% of your portfolio; your maximum is 7%" */
export function positionSizeWarningText({ percent, maxPercent }: PositionSizeWarning): string {
  return `This position would be ${formatPercent(percent, 1)} of your portfolio; your maximum is ${formatPlainPercent(maxPercent)}`;
}
