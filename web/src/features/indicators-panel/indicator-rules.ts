/**
 * What the technical indicators panel says about each reading of `GET /api/indicators` (spec section
 * 9), as pure functions so the thresholds are tested without a DOM:
 * - RSI below 30 'Oversold', above 70 'Overbought', else 'Neutral' (30 and 70 themselves are Neutral);
 * - MACD above its signal line 'Bullish', below 'Bearish';
 * - price above MA20 'Above MA', else 'Below MA' (equal is Below MA, the spec's "else");
 * - volume HIGH 'Above average', LOW 'Below average';
 * - the MACD bar is min(100, |macd| x 2) percent wide, with MACD in basis points of price (below).
 *
 * Two cases the spec leaves open, decided here:
 * - volume NORMAL reads 'Average': the server's NORMAL is a ratio between 0.5 and 1.5 of the 20-candle
 *   average, neither above nor below it, so neither spec string would be true.
 * - MACD exactly on its signal line reads 'Bearish': the spec names only two states, and "not above
 *   the signal" is the reading the MA rule uses for its own tie.
 * - the MACD bar's MACD is in basis points of the price (MACD / price x 10,000), not in dollars. MACD
 *   is a difference of two price averages, so in dollars it scales with the coin's price: BTC's
 *   (tens of dollars) always filled the bar and ADA's or MATIC's (fractions of a cent) never showed.
 *   In basis points the bar means the same for every coin: 50 bp (half a percent of the price) or
 *   more is full. The price is the answer's own, the close of the candle the MACD is of, so both
 *   are of the same moment. The tooltip says so.
 * A reading the server could not compute yet (null: too little history) has no label (null), so the
 * panel shows a dash instead of an invented verdict; the MACD bar is then 0 wide.
 */
import type { IndicatorsResponse } from '@papertrade/domain/signals/contracts';

export const RSI_OVERSOLD_BELOW = 30;
export const RSI_OVERBOUGHT_ABOVE = 70;
/** The MACD bar gains this many percent per basis point of MACD over price, up to 100. */
export const MACD_BAR_PERCENT_PER_UNIT = 2;
const BASIS_POINTS = 10_000;

export type RsiLabel = 'Oversold' | 'Overbought' | 'Neutral';
export type MacdLabel = 'Bullish' | 'Bearish';
export type MaLabel = 'Above MA' | 'Below MA';
export type VolumeLabel = 'Above average' | 'Below average' | 'Average';
export type VolumeReading = NonNullable<IndicatorsResponse['volume']>;

const usable = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

export function rsiLabel(rsi: number | null): RsiLabel | null {
  if (!usable(rsi)) return null;
  if (rsi < RSI_OVERSOLD_BELOW) return 'Oversold';
  if (rsi > RSI_OVERBOUGHT_ABOVE) return 'Overbought';
  return 'Neutral';
}

export function macdLabel(macd: number | null, signal: number | null): MacdLabel | null {
  if (!usable(macd) || !usable(signal)) return null;
  return macd > signal ? 'Bullish' : 'Bearish';
}

export function maLabel(price: number | null, ma20: number | null): MaLabel | null {
  if (!usable(price) || !usable(ma20)) return null;
  return price > ma20 ? 'Above MA' : 'Below MA';
}

const VOLUME_LABELS: Record<VolumeReading, VolumeLabel> = {
  HIGH: 'Above average',
  LOW: 'Below average',
  NORMAL: 'Average',
};

export function volumeLabel(volume: VolumeReading | null): VolumeLabel | null {
  return volume === null ? null : VOLUME_LABELS[volume];
}

/** MACD / price x 10,000: MACD in basis points of the price; null without both (or a price of 0). */
export function macdBasisPoints(macd: number | null, price: number | null): number | null {
  if (!usable(macd) || !usable(price) || price <= 0) return null;
  return (macd / price) * BASIS_POINTS;
}

/** min(100, |MACD / price x 10,000| x 2), in percent; 0 when there is no MACD (or price) yet. */
export function macdBarWidthPercent(macd: number | null, price: number | null): number {
  const bp = macdBasisPoints(macd, price);
  if (bp === null) return 0;
  return Math.min(100, Math.abs(bp) * MACD_BAR_PERCENT_PER_UNIT);
}

const tooltipNumber = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });
const tooltipBp = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const tooltipPercent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** What the MACD bar measures, for its tooltip. */
export function macdBarTooltip(macd: number | null, price: number | null): string {
  const bp = macdBasisPoints(macd, price);
  if (bp === null) return 'MACD in basis points of price (MACD / price × 10,000); the bar is min(100, |bp| × 2) percent wide; no MACD yet';
  return (
    `MACD ${tooltipNumber.format(macd!)} is ${tooltipBp.format(bp)} bp of the price ${tooltipNumber.format(price!)} (MACD / price × 10,000); ` +
    `the bar is min(100, |${tooltipBp.format(bp)}| × 2) = ${tooltipPercent.format(macdBarWidthPercent(macd, price))}% wide`
  );
}

export interface IndicatorLabels {
  rsi: RsiLabel | null;
  macd: MacdLabel | null;
  macdBarWidthPercent: number;
  macdBarTooltip: string;
  ma: MaLabel | null;
  volume: VolumeLabel | null;
}

/** Every label of the panel for one `/api/indicators` answer. */
export function indicatorLabels(reading: IndicatorsResponse): IndicatorLabels {
  return {
    rsi: rsiLabel(reading.rsi),
    macd: macdLabel(reading.macd, reading.macdSignal),
    macdBarWidthPercent: macdBarWidthPercent(reading.macd, reading.price),
    macdBarTooltip: macdBarTooltip(reading.macd, reading.price),
    ma: maLabel(reading.price, reading.ma20),
    volume: volumeLabel(reading.volume),
  };
}
