/**
 * The Run Backtest form's rules as pure functions (premium-and-account.md sections 2, 3, 5 and 9), so
 * the defaults, the bounds and the request are checked without a browser:
 * - defaults: symbol ETH, initial capital 10000, the last 6 months to today (the viewer's calendar day);
 * - a strategy's parameters start at its defaults; each input is numeric within the strategy's min and
 *   max (typed text is kept as typed, and the first problem is named);
 * - Run is disabled while a run is under way or with no strategy selected; a run asked for with none
 *   is 'Strategy Required: Please select a trading strategy' (the spec's section 5 text);
 * - the request is `{strategyId, symbol, startDate, endDate, initialCapital, parameters}`.
 * The server checks everything again and states the rest (the order of two periods, the history's
 * start, the longest period): its refusal reads 'Backtest Failed' with its message. These checks only
 * keep what the inputs themselves show (bounds, a date) from being sent wrong.
 */
import {
  DEFAULT_BACKTEST_SYMBOL,
  DEFAULT_INITIAL_CAPITAL,
  MAX_INITIAL_CAPITAL,
  MIN_INITIAL_CAPITAL,
  STRATEGY_REQUIRED_MESSAGE,
  type BacktestRequestInput,
  type StrategyDefinition,
} from '@papertrade/domain/backtest/contracts';
import { coinSymbols } from '@papertrade/domain/market/coins';

export { DEFAULT_INITIAL_CAPITAL };
export const DEFAULT_SYMBOL = DEFAULT_BACKTEST_SYMBOL;
export const DEFAULT_PERIOD_MONTHS = 6;
/** Every supported coin (the spec names ETH, BTC and BNB; the server takes each coin of the market). */
export const BACKTEST_SYMBOLS = coinSymbols;
/** The capital's bounds, the server's. */
export const CAPITAL_BOUNDS = { min: MIN_INITIAL_CAPITAL, max: MAX_INITIAL_CAPITAL } as const;
export { STRATEGY_REQUIRED_MESSAGE };

type StrategyDefinitionLike = Pick<StrategyDefinition, 'id' | 'parameters'>;

/** What the person typed: text, so a half-typed number is not lost. */
export interface BacktestFormState {
  strategyId: string;
  symbol: string;
  startDate: string;
  endDate: string;
  initialCapital: string;
  parameters: Record<string, string>;
}

export type BacktestRequestBody = Required<BacktestRequestInput>;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `YYYY-MM-DD` of a time in the viewer's calendar: "today" is the person's today. The server reads a
 * date-only end as the end of that UTC day capped at now, and takes one day ahead of UTC (a viewer
 * east of Greenwich), so the person's today is never refused as the future.
 */
export function localDay(time: Date): string {
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}

/** The same UTC day `months` calendar months earlier (31 Aug less 6 months is 28/29 Feb, not 2/3 Mar). */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const monthIndex = y * 12 + (m - 1) - months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${year}-${pad(month + 1)}-${pad(Math.min(d, lastDay))}`;
}

/** The default period: the last 6 months to today. */
export function defaultPeriod(now: Date): { startDate: string; endDate: string } {
  const endDate = localDay(now);
  return { startDate: monthsBefore(endDate, DEFAULT_PERIOD_MONTHS), endDate };
}

export function initialFormState(now: Date): BacktestFormState {
  return { strategyId: '', symbol: DEFAULT_SYMBOL, ...defaultPeriod(now), initialCapital: String(DEFAULT_INITIAL_CAPITAL), parameters: {} };
}

/** Choosing a strategy resets its parameters to that strategy's defaults; none clears them. */
export function selectStrategy(state: BacktestFormState, strategy: StrategyDefinitionLike | undefined): BacktestFormState {
  if (!strategy) return { ...state, strategyId: '', parameters: {} };
  const parameters = Object.fromEntries(Object.entries(strategy.parameters).map(([name, bounds]) => [name, String(bounds.default)]));
  return { ...state, strategyId: strategy.id, parameters };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A typed number within [min, max]. */
export function parseBoundedNumber(text: string, min: number, max: number): Parsed<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'Enter a number' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, error: 'Enter a number' };
  if (value < min || value > max) return { ok: false, error: `Must be between ${min} and ${max}` };
  return { ok: true, value };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Each field's problem (by field name; parameters as `parameters.<name>`), empty when the form can be sent. */
export function formErrors(state: BacktestFormState, strategy: StrategyDefinitionLike | undefined, now: Date): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!strategy) errors.strategyId = STRATEGY_REQUIRED_MESSAGE;
  if (!(BACKTEST_SYMBOLS as readonly string[]).includes(state.symbol)) errors.symbol = 'Choose a coin';
  const capital = parseBoundedNumber(state.initialCapital, CAPITAL_BOUNDS.min, CAPITAL_BOUNDS.max);
  if (!capital.ok) errors.initialCapital = capital.error;
  if (!DAY.test(state.startDate)) errors.startDate = 'Enter a start date';
  if (!DAY.test(state.endDate)) errors.endDate = 'Enter an end date';
  else if (state.endDate > localDay(now)) errors.endDate = 'The end date cannot be in the future';
  if (!errors.startDate && !errors.endDate && state.startDate >= state.endDate) errors.endDate = 'The end date must be after the start date';
  if (strategy) {
    for (const [name, bounds] of Object.entries(strategy.parameters)) {
      const parsed = parseBoundedNumber(state.parameters[name] ?? '', bounds.min, bounds.max);
      if (!parsed.ok) errors[`parameters.${name}`] = parsed.error;
    }
  }
  return errors;
}

/** Run is usable only for a premium user, with a strategy chosen and nothing running. */
export function runDisabled({ premium, running, strategyId }: { premium: boolean; running: boolean; strategyId: string }): boolean {
  return !premium || running || strategyId === '';
}

/** The request to send, or the first problem to show. */
export function toRequest(state: BacktestFormState, strategy: StrategyDefinitionLike | undefined, now: Date): Parsed<BacktestRequestBody> {
  const errors = formErrors(state, strategy, now);
  const first = Object.values(errors)[0];
  if (first !== undefined || !strategy) return { ok: false, error: first ?? STRATEGY_REQUIRED_MESSAGE };
  const parameters = Object.fromEntries(Object.keys(strategy.parameters).map((name) => [name, Number(state.parameters[name])]));
  return {
    ok: true,
    value: { strategyId: strategy.id, symbol: state.symbol as (typeof coinSymbols)[number], startDate: state.startDate, endDate: state.endDate, initialCapital: Number(state.initialCapital), parameters },
  };
}
