/**
 * ISO-8601 texts of times and back, the last ones kept: a backtest or replay asks for the same few
 * times again and again (an order's fill time is formatted for the command, its market and its
 * quote, then parsed back by the decider; a signal's candle time is checked, then compared with the
 * last one traded; a day's realised loss is looked up at every entry). The answers are the
 * built-ins' own, so nothing changes but the time. Bounded (emptied when full).
 */
const MAX_KEPT = 1 << 16;
const parsed = new Map<string, number>();
const days = new Map<string, string>();
const formatted = new Map<number, string>();
/** The last few texts parsed or formatted, compared by identity first (a text made by isoOf is parsed back as its time). */
const RING = 4;
const ringText: Array<string | null> = [null, null, null, null];
const ringMs = new Float64Array(RING);
let ringNext = 0;
let lastIsoMs = Number.NaN;
let lastIso = '';
let lastDayIso: string | null = null;
let lastDay = '';

function ringPut(text: string, ms: number): void {
  ringText[ringNext] = text;
  ringMs[ringNext] = ms;
  ringNext = (ringNext + 1) % RING;
}

/** Date.parse(text), kept. */
export function parseTime(text: string): number {
  for (let k = 0; k < RING; k++) if (ringText[k] === text) return ringMs[k]!;
  let ms = parsed.get(text);
  if (ms === undefined) {
    if (parsed.size >= MAX_KEPT) parsed.clear();
    ms = Date.parse(text);
    parsed.set(text, ms);
  }
  ringPut(text, ms);
  return ms;
}

/** new Date(ms).toISOString(), kept (throws as it does on an invalid time); the same time gives the same string. */
export function isoOf(ms: number): string {
  if (ms !== lastIsoMs) {
    let text = formatted.get(ms);
    if (text === undefined) {
      text = new Date(ms).toISOString();
      if (formatted.size >= MAX_KEPT) formatted.clear();
      formatted.set(ms, text);
    }
    lastIso = text;
    lastIsoMs = ms;
    // Date.parse of a toISOString text is the date's time value (ms without its fraction): parsed back without parsing.
    ringPut(lastIso, Math.trunc(ms) + 0);
  }
  return lastIso;
}

/** The UTC day (YYYY-MM-DD) of an ISO-8601 time, kept; throws as `new Date(iso).toISOString()` does on an invalid one. */
export function utcDayOf(iso: string): string {
  if (iso === lastDayIso) return lastDay;
  let day = days.get(iso);
  if (day === undefined) {
    day = new Date(iso).toISOString().slice(0, 10);
    if (days.size >= MAX_KEPT) days.clear();
    days.set(iso, day);
  }
  lastDayIso = iso;
  lastDay = day;
  return day;
}
