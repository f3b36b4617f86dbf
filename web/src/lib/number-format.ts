/**
 * How money and amounts read everywhere (spec section 9): dollars with 2 decimals, ETH with 4.
 * Missing values read as a dash, never as an invented number.
 */
export const MISSING = '—';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const fixed4 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

const usable = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** `$12,345.67` */
export function formatUsd(value: number | null | undefined): string {
  return usable(value) ? usd.format(value) : MISSING;
}

/** `+$12.34`, `-$12.34`, `$0.00` */
export function formatSignedUsd(value: number | null | undefined): string {
  if (!usable(value)) return MISSING;
  const text = usd.format(Math.abs(value));
  if (text === usd.format(0)) return text;
  return `${value > 0 ? '+' : '-'}${text}`;
}

/** `+1.23%`, `-0.50%`, `0.00%` */
export function formatSignedPercent(value: number | null | undefined): string {
  if (!usable(value)) return MISSING;
  const text = Math.abs(value).toFixed(2);
  if (text === '0.00') return '0.00%';
  return `${value > 0 ? '+' : '-'}${text}%`;
}

/** The day's P&L as a percentage of the total value; 0 when the total is 0. */
export function pnlPercentOfTotal(pnl: number, total: number): number {
  return total === 0 ? 0 : (pnl / total) * 100;
}

/** `1.2345 ETH` */
export function formatEth(value: number | null | undefined): string {
  return usable(value) ? `${fixed4.format(value)} ETH` : MISSING;
}

/** `12,345` */
export function formatCount(value: number | null | undefined): string {
  return usable(value) ? integer.format(value) : MISSING;
}

/** Which way a number points, for up/down colouring. */
export function direction(value: number | null | undefined): 'up' | 'down' | 'flat' {
  if (!usable(value) || value === 0) return 'flat';
  return value > 0 ? 'up' : 'down';
}
