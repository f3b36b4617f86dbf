/**
 * How the chart writes prices and times. Money is dollars with 2 decimals (spec section 9); a coin
 * under a dollar (ADA, MATIC) would read the same cent on every candle, so below $1 the chart shows 4
 * decimals. Times are the viewer's local time: hours and minutes for ranges up to a day, the date
 * and hour for a week, the date alone for longer ranges.
 */
const dollars2 = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dollars4 = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 4, maximumFractionDigits: 4 });
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const clock = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

export function formatChartPrice(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return Math.abs(value) < 1 ? dollars4.format(value) : dollars2.format(value);
}

/**
 * A price axis label: as many decimals as the distance between two ticks needs (`$3,650` for a step
 * of 50, `$0.455` for 0.005), at most 4, so labels stay short enough for the axis.
 */
export function formatAxisPrice(value: number, step: number): string {
  const decimals = step > 0 && Number.isFinite(step) ? Math.min(4, Math.max(0, -Math.floor(Math.log10(step) + 1e-9))) : 2;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** USD volume, compact: $1.23M. */
export function formatVolume(value: number): string {
  return Number.isFinite(value) ? `$${compact.format(value)}` : '—';
}

/** An axis label for a candle's time in a chart of `days`. */
export function formatAxisTime(time: number, days: number): string {
  if (days <= 1) return clock.format(time);
  if (days <= 7) return `${day.format(time)} ${clock.format(time)}`;
  return day.format(time);
}

/** The tooltip's date and time. */
export function formatTooltipTime(time: number): string {
  return full.format(time);
}

/**
 * Which candles get a time label: about one per `spacingPx` of width, evenly spaced, at least one.
 * Indices ascending, all within [0, count).
 */
export function axisTickIndices(count: number, widthPx: number, spacingPx = 110): number[] {
  if (count <= 0 || widthPx <= 0) return [];
  const labels = Math.max(1, Math.floor(widthPx / spacingPx));
  const step = Math.max(1, Math.ceil(count / labels));
  const out: number[] = [];
  for (let i = Math.floor(step / 2); i < count; i += step) out.push(i);
  return out;
}
