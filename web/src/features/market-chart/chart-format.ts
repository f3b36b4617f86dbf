/**
 * How the chart writes times: the viewer's local time, hours and minutes for ranges up to a day,
 * the date and hour for a week, the date alone for longer ranges. Its prices, axis prices and
 * volume are lib/number-format.ts's (formatPrice, formatAxisPrice, formatCompactUsd), like every
 * other figure of the app.
 */
const clock = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

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
