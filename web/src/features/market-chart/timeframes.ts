/**
 * The price chart's day-range selector (spec section 2): 1H, 4H, 1D, 7D and 30D, sent to
 * `GET /api/coins/{coin}/ohlc?days=` as 0.04, 0.17, 1, 7 and 30 days; 7D is the default (section 9).
 *
 * 0.04 and 0.17 days are the spec's rounded hours (57.6 and 244.8 minutes, not 60 and 240); they are
 * kept as the spec gives them because they are the values the server is asked for and caches by.
 */
export const TIMEFRAMES = [
  { label: '1H', days: 0.04 },
  { label: '4H', days: 0.17 },
  { label: '1D', days: 1 },
  { label: '7D', days: 7 },
  { label: '30D', days: 30 },
] as const;

export type Timeframe = (typeof TIMEFRAMES)[number];
export type TimeframeLabel = Timeframe['label'];

export const DEFAULT_TIMEFRAME: Timeframe = TIMEFRAMES[3];

/** The timeframe with this label; the default for a label that is not one (an old saved choice, say). */
export function timeframeByLabel(label: string): Timeframe {
  return TIMEFRAMES.find((t) => t.label === label) ?? DEFAULT_TIMEFRAME;
}
