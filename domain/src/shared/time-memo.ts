/**
 * ISO-8601 texts of times and back, the last ones kept: a backtest or replay asks for the same few
 * times again and again (an order's fill time is formatted for the command, its market and its
 * quote, then parsed back by the decider; a signal's candle time is checked, then compared with the
 * last one traded; a day's realised loss is looked up at every entry). The answers are the
 * built-ins' own, so nothing changes but the time. Bounded (the maps emptied when full, the formatted
 * texts in a fixed table).
 */
const MAX_KEPT = 1 << 16;
const parsed = new Map<string, number>();
const days = new Map<string, string>();
/**
 * The texts formatted last, direct-mapped by the time's second (a slot keeps the last time that fell
 * in it): the times asked come in time order (a backtest's fills, a candle every five minutes), so
 * neighbouring times are neighbouring slots, where a hash map scattered them over a large table.
 */
const FORMATTED_SLOTS = 1 << 16;
const formattedMs = new Float64Array(FORMATTED_SLOTS).fill(Number.NaN);
const formattedText: string[] = new Array<string>(FORMATTED_SLOTS).fill('');
/** The last few texts parsed or formatted, compared by identity first (a text made by isoOf is parsed back as its time). */
const RING = 8;
const ringText: Array<string | null> = new Array<string | null>(RING).fill(null);
const ringMs = new Float64Array(RING);
/** 1 where the ring's text is its day's first ten characters and more (made by isoOf, or canonicalMs read it): utcDayOf slices it. */
const ringCanonical = new Uint8Array(RING);
let ringNext = 0;
let lastIsoMs = Number.NaN;
let lastIso = '';
let lastDayIso: string | null = null;
let lastDay = '';

// Stryker disable next-line BlockStatement: equivalent, without the ring every text is computed again (same answer) (the memo's answers are the built-ins', only slower).
function ringPut(text: string, ms: number, canonical: boolean): void {
  ringText[ringNext] = text;
  ringMs[ringNext] = ms;
  ringCanonical[ringNext] = canonical ? 1 : 0;
  // Stryker disable next-line ArithmeticOperator: equivalent, a ring slot out of range is never read back, so the text is computed again (the memo's answers are the built-ins', only slower).
  ringNext = (ringNext + 1) % RING;
}

/** Whether `text` is in the ring as a canonical text (see ringCanonical). */
// Stryker disable next-line BlockStatement: equivalent, a text not found canonical is checked by canonicalMs (same answer) (the memo's answers are the built-ins', only slower).
function canonicalInRing(text: string): boolean {
  // Stryker disable next-line all: equivalent, a text not found canonical is checked by canonicalMs (same answer) (the memo's answers are the built-ins', only slower).
  for (let k = 0; k < RING; k++) if (ringText[k] === text) return ringCanonical[k] === 1;
  return false;
}

/**
 * Forgets every kept text (specs: a mutation test runs a spec again and again in one process, and an
 * answer kept from an earlier run would hide a changed rule; the memo's answers never depend on it).
 */
// Stryker disable all: test support, called by specs only (before every test under mutation testing,
// so each of its mutants would rerun every spec); the memo's answers do not depend on it.
export function forgetTimeTexts(): void {
  parsed.clear();
  days.clear();
  formattedMs.fill(Number.NaN);
  formattedText.fill('');
  ringText.fill(null);
  ringMs.fill(0);
  ringCanonical.fill(0);
  ringNext = 0;
  lastIsoMs = Number.NaN;
  lastIso = '';
  lastDayIso = null;
  lastDay = '';
}
// Stryker restore all

/** The number written at text[at, at + n), or -1 when a character is not a digit. */
// Stryker disable next-line BlockStatement: equivalent, a number not read makes canonicalMs NaN, and Date.parse answers (the memo's answers are the built-ins', only slower).
function digits(text: string, at: number, n: number): number {
  let v = 0;
  // Stryker disable next-line all: equivalent, a field read short or long is out of range or -1, so canonicalMs is NaN and Date.parse answers (the memo's answers are the built-ins', only slower).
  for (let i = at; i < at + n; i++) {
    // Stryker disable next-line ArithmeticOperator: equivalent, every character then reads as no digit: -1, and Date.parse answers (the memo's answers are the built-ins', only slower).
    const c = text.charCodeAt(i) - 48;
    // Stryker disable next-line EqualityOperator: equivalent, each of these refuses more digits (-1), and Date.parse answers (the memo's answers are the built-ins', only slower).
    if (c < 0 || c > 9) return -1;
    // Stryker disable next-line ArithmeticOperator: equivalent, a year read this way is under 100, so canonicalMs is NaN and Date.parse answers (the memo's answers are the built-ins', only slower).
    v = v * 10 + c;
  }
  return v;
}

// Stryker disable next-line all: equivalent, a 29th of February in a common year rolls over to 1 March both in daysFromCivil and in Date.parse (the memo's answers are the built-ins', only slower).
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The time of a text in toISOString's own form ('YYYY-MM-DDTHH:MM:SS.sssZ', a year from 100) whose
 * every field is in range, by arithmetic: what the engine's texts are, and no table to search. NaN for
 * any other text, which Date.parse answers (an hour 24, a 30th of February and offsets roll over there).
 */
function canonicalMs(text: string): number {
  if (text.length !== 24 || text.charCodeAt(23) !== 90 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 46) {
    return Number.NaN;
  }
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const sec = digits(text, 17, 2);
  const ms = digits(text, 20, 3);
  // Stryker disable next-line EqualityOperator: equivalent, each refuses more texts in range, which Date.parse then answers; widened bounds are caught by the specs (the memo's answers are the built-ins', only slower).
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && isLeap(y) ? 29 : MONTH_DAYS[mo - 1]!) || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0) return Number.NaN;
  return daysFromCivil(y, mo, d) * 86_400_000 + ((h * 60 + mi) * 60 + sec) * 1000 + ms;
}

/** Days from 1970-01-01 to the proleptic Gregorian date y-m-d (March-based years of 400-year eras; Date.UTC is a runtime call, several times slower). */
// Stryker disable next-line BlockStatement: equivalent, an undefined day count makes the time NaN, and Date.parse answers (the memo's answers are the built-ins', only slower).
function daysFromCivil(year: number, m: number, d: number): number {
  const y = m <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Date.parse(text), kept. */
export function parseTime(text: string): number {
  // Stryker disable next-line all: equivalent, a text not found in the ring is computed again (same answer) (the memo's answers are the built-ins', only slower).
  for (let k = 0; k < RING; k++) if (ringText[k] === text) return ringMs[k]!;
  const fast = canonicalMs(text);
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, without the fast path the text goes to Date.parse (same answer) (the memo's answers are the built-ins', only slower).
  if (!Number.isNaN(fast)) {
    // Stryker disable next-line BooleanLiteral: equivalent, a text not marked canonical is checked by canonicalMs in utcDayOf (same answer) (the memo's answers are the built-ins', only slower).
    ringPut(text, fast, true);
    return fast;
  }
  let ms = parsed.get(text);
  // Stryker disable next-line ConditionalExpression: equivalent, Date.parse again instead of the kept answer (the memo's answers are the built-ins', only slower).
  if (ms === undefined) {
    // Stryker disable next-line all: equivalent, the bound only limits memory; a cleared map computes again (the memo's answers are the built-ins', only slower).
    if (parsed.size >= MAX_KEPT) parsed.clear();
    ms = Date.parse(text);
    parsed.set(text, ms);
  }
  ringPut(text, ms, false);
  return ms;
}

/** new Date(ms).toISOString(), kept (throws as it does on an invalid time); the same time gives the same string. */
export function isoOf(ms: number): string {
  // Stryker disable next-line ConditionalExpression: equivalent, formatting again instead of the last text (the memo's answers are the built-ins', only slower).
  if (ms !== lastIsoMs) {
    // Any slot serves (NaN and huge times too: a miss formats, and an invalid time throws there).
    // Stryker disable next-line ArithmeticOperator: equivalent, any slot serves: a slot is only read back for its own time (the memo's answers are the built-ins', only slower).
    const slot = (ms / 1000) & (FORMATTED_SLOTS - 1);
    let text: string;
    // Stryker disable next-line ConditionalExpression: equivalent, formatting again instead of the kept text (the memo's answers are the built-ins', only slower).
    if (formattedMs[slot] === ms) text = formattedText[slot]!;
    else {
      text = new Date(ms).toISOString();
      formattedMs[slot] = ms;
      formattedText[slot] = text;
    }
    lastIso = text;
    lastIsoMs = ms;
    // Date.parse of a toISOString text is the date's time value (ms without its fraction): parsed back without parsing.
    // Its day is its first ten characters whatever the year (what utcDayOf's Date would answer): canonical for the ring.
    // Stryker disable next-line ArithmeticOperator,BooleanLiteral: equivalent, the same number (- 0), or a text not marked canonical, which canonicalMs then checks (the memo's answers are the built-ins', only slower).
    ringPut(lastIso, Math.trunc(ms) + 0, true);
  }
  return lastIso;
}

/** The UTC day (YYYY-MM-DD) of an ISO-8601 time, kept; throws as `new Date(iso).toISOString()` does on an invalid one. */
export function utcDayOf(iso: string): string {
  // Stryker disable next-line ConditionalExpression: equivalent, the day computed again instead of the last one (the memo's answers are the built-ins', only slower).
  if (iso === lastDayIso) return lastDay;
  // A text in toISOString's form with every field in range is its own day's first ten characters
  // (one just made by isoOf or parsed is known to be; a fill's time is asked for its day after both).
  // Stryker disable next-line all: equivalent, without the shortcut the day comes from the Date (same answer) (the memo's answers are the built-ins', only slower).
  if (canonicalInRing(iso) || !Number.isNaN(canonicalMs(iso))) {
    lastDayIso = iso;
    lastDay = iso.slice(0, 10);
    return lastDay;
  }
  let day = days.get(iso);
  // Stryker disable next-line ConditionalExpression: equivalent, the day computed again instead of the kept one (the memo's answers are the built-ins', only slower).
  if (day === undefined) {
    day = new Date(iso).toISOString().slice(0, 10);
    // Stryker disable next-line all: equivalent, the bound only limits memory; a cleared map computes again (the memo's answers are the built-ins', only slower).
    if (days.size >= MAX_KEPT) days.clear();
    days.set(iso, day);
  }
  lastDayIso = iso;
  lastDay = day;
  return day;
}
