/**
 * The one place the web app turns numbers into text: every screen, table, toast, chart label and
 * CSV cell goes through these, so a figure reads the same wherever it appears.
 *
 * - Money (cash, values, P&L, fees, limits): dollars with 2 decimals and thousands separators
 *   (spec section 9), `$3,455,969.86`.
 * - Prices of a coin: by magnitude. Cents hide every move of a coin under a dollar (MATIC's entry,
 *   price, stop and target all read $0.36), so a price shows at least four significant digits and
 *   at least 2 decimals, at most 8 (the trading domain's precision): `$3,455.12`, `$12.35`,
 *   `$7.123`, `$0.3612`, `$0.00001234`. Trailing zeros stay, so a column of prices lines up.
 * - Coin amounts: 4 decimals (spec section 9: ETH amounts), more for an amount 4 decimals would hide
 *   (down to the domain's 8), so `0.00001234 BTC` never reads `0.0000 BTC`.
 * - Percentages: 2 decimals unless a screen says otherwise (`20.70%`).
 * - CSV cells: plain numbers a spreadsheet reads as numbers, every digit kept (csvNumber).
 * Missing values read as a dash, never as an invented number.
 */
export const MISSING = '—';

/** The most decimals anything here shows: the trading domain keeps prices and quantities to 8. */
const MAX_DECIMALS = 8;

const formatters = new Map<string, Intl.NumberFormat>();

/** en-US grouping; `currency` adds the dollar sign (and writes `-$2.50` for a negative value). */
function numberFormat(minimumFractionDigits: number, maximumFractionDigits: number, currency = false): Intl.NumberFormat {
  const key = `${minimumFractionDigits}:${maximumFractionDigits}:${currency}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { ...(currency ? { style: 'currency', currency: 'USD' } : {}), minimumFractionDigits, maximumFractionDigits });
    formatters.set(key, format);
  }
  return format;
}

const usd = numberFormat(2, 2, true);
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });

const usable = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

const clamp = (n: number, low: number, high: number) => Math.min(high, Math.max(low, n));

/** The decimals that give a value `significant` digits before rounding (for |value| < 1 they are all after the point). */
function decimalsFor(value: number, significant: number, min: number): number {
  if (value === 0) return min;
  return clamp(significant - 1 - Math.floor(Math.log10(Math.abs(value))), min, MAX_DECIMALS);
}

/** `$12,345.67`: money. */
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

/** The decimals a price is shown with: four significant digits, at least 2 decimals, at most 8. */
export function priceDecimals(price: number): number {
  return decimalsFor(price, 4, 2);
}

/** `$3,455.12`, `$12.35`, `$0.3612`, `$0.00001234`: a coin's price, by magnitude. */
export function formatPrice(value: number | null | undefined): string {
  if (!usable(value)) return MISSING;
  const decimals = priceDecimals(value);
  return numberFormat(decimals, decimals, true).format(value);
}

/**
 * A price axis label: as many decimals as the distance between two ticks needs (`$3,650` for a
 * step of 50, `$0.455` for 0.005), so the labels stay short and still differ from each other.
 */
export function formatAxisPrice(value: number, step: number): string {
  if (!Number.isFinite(step) || step <= 0) return formatPrice(value);
  const decimals = clamp(-Math.floor(Math.log10(step) + 1e-9), 0, MAX_DECIMALS);
  return numberFormat(decimals, decimals, true).format(value);
}

/** `$29`, `$29.50`: a catalogue price per month, whole dollars when it has no cents. */
export function formatListPrice(value: number | null | undefined): string {
  if (!usable(value)) return MISSING;
  return Number.isInteger(value) ? numberFormat(0, 0, true).format(value) : usd.format(value);
}

/** `$645.43M`: traded volume. */
export function formatCompactUsd(value: number | null | undefined): string {
  return usable(value) ? `$${compact.format(value)}` : MISSING;
}

/** `+1.23%`, `-0.50%`, `0.00%` */
export function formatSignedPercent(value: number | null | undefined): string {
  if (!usable(value)) return MISSING;
  const text = numberFormat(2, 2).format(Math.abs(value));
  if (text === '0.00') return '0.00%';
  return `${value > 0 ? '+' : '-'}${text}%`;
}

/** `20.70%`; `74.3%` with 1 decimal. */
export function formatPercent(value: number | null | undefined, decimals = 2): string {
  return usable(value) ? `${numberFormat(decimals, decimals).format(value)}%` : MISSING;
}

/** `7%`, `0.5%`, `12.25%`: a percentage someone set (a limit), as set: no trailing zeros, at most 2 decimals. */
export function formatPlainPercent(value: number | null | undefined): string {
  return usable(value) ? `${numberFormat(0, 2).format(value)}%` : MISSING;
}

/** The day's P&L as a percentage of the total value; 0 when the total is 0. */
export function pnlPercentOfTotal(pnl: number, total: number): number {
  return total === 0 ? 0 : (pnl / total) * 100;
}

/**
 * `0.5000 ETH`, `0.0123 BTC`, `0.00001234 BTC`, or the bare number without a symbol: 4 decimals as
 * the spec shows amounts, and more only for an amount that 4 decimals would show as 0.0000 (a few
 * satoshis of BTC), so a position is never shown as nothing.
 */
export function formatCoinAmount(value: number | null | undefined, symbol?: string): string {
  if (!usable(value)) return MISSING;
  const hidden = value !== 0 && Math.abs(value) < 0.00005;
  const text = numberFormat(4, hidden ? decimalsFor(value, 4, 4) : 4).format(value);
  return symbol ? `${text} ${symbol}` : text;
}

/** `1.2345 ETH` */
export function formatEth(value: number | null | undefined): string {
  return formatCoinAmount(value, 'ETH');
}

/** `54.32`, `70`, `-0.001235`: an indicator's reading or threshold, four significant digits (a coin under a dollar has a MACD in thousandths). */
export function formatReading(value: number | null | undefined): string {
  return usable(value) ? numberFormat(0, decimalsFor(value, 4, 2)).format(value) : MISSING;
}

/** `12,345` */
export function formatCount(value: number | null | undefined): string {
  return usable(value) ? numberFormat(0, 0).format(value) : MISSING;
}

/**
 * A number for a CSV cell: the value itself (every digit the server sent, no separators), so a
 * spreadsheet reads it as a number and a price keeps its precision. A magnitude JavaScript would
 * write with an exponent (`1e-8`, below a millionth) is written out as a plain decimal instead;
 * such a cell is text, which is harmless for the amounts and prices it can happen to (never
 * negative, so never mistaken for a formula). Null for a missing value (an empty cell).
 */
export function csvNumber(value: number | null | undefined): number | string | null {
  if (!usable(value)) return null;
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponent) return value;
  const [, sign, lead, rest = '', power] = exponent;
  const digits = `${lead}${rest}`;
  const shift = Number(power);
  if (shift < 0) return `${sign}0.${'0'.repeat(-shift - 1)}${digits}`;
  return shift >= rest.length ? `${sign}${digits}${'0'.repeat(shift - rest.length)}` : `${sign}${digits.slice(0, shift + 1)}.${digits.slice(shift + 1)}`;
}

/** Which way a number points, for up/down colouring. */
export function direction(value: number | null | undefined): 'up' | 'down' | 'flat' {
  if (!usable(value) || value === 0) return 'flat';
  return value > 0 ? 'up' : 'down';
}
