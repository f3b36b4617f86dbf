/**
 * Facts: the figures and texts an answer of the assistant is made from, each formatted once, the way
 * the web app writes the same figure (web/src/lib/number-format.ts: money with 2 decimals and
 * separators, prices by magnitude, coin amounts with 4 decimals, percentages with 2), and each with
 * the screen it can be checked on. An answer template interpolates `fact.text` and nothing else that
 * holds a digit, so every number in a grounded answer is one of its facts (the grounding spec checks).
 *
 * Pure: values come in from the read models' responses (trading-read.ts and the other slices).
 */
import type { Fact, FactUnit } from './contracts';

/** Where a fact can be seen: the screen (a path of the web app) and the read it came from. */
export interface Where {
  source: string;
  api: string;
}

/** The screens facts link to. */
export const screens = {
  dashboard: '/',
  tradeHistory: '/trade-history',
  riskParameters: '/risk-management',
  activeTrades: '/risk-management?tab=active-trades',
  riskAlerts: '/risk-management?tab=alerts',
  subscription: '/subscription',
  backtesting: '/backtesting',
  settings: '/settings',
} as const;

const MAX_DECIMALS = 8;
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(min: number, max: number, currency = false): Intl.NumberFormat {
  const key = `${min}:${max}:${currency}`;
  let format = formats.get(key);
  // Stryker disable next-line ConditionalExpression: equivalent, as `true` every format is made again (the same answer, slower); `false` (never made) is the `format` mutant's case, which stays.
  if (!format) {
    format = new Intl.NumberFormat('en-US', { ...(currency ? { style: 'currency', currency: 'USD' } : {}), minimumFractionDigits: min, maximumFractionDigits: max });
    formats.set(key, format);
  }
  return format;
}
// Stryker disable all: test support, called before every test under mutation testing (a format kept
// while one mutant was active would hide the next one's changed options); answers never depend on it.
/** Forgets the kept number formats (mutation testing: each test starts as in a fresh process). */
export function forgetNumberFormats(): void {
  formats.clear();
}
// Stryker restore all
const clamp = (n: number, low: number, high: number) => Math.min(high, Math.max(low, n));
function decimalsFor(value: number, significant: number, min: number): number {
  if (value === 0 || !Number.isFinite(value)) return min;
  return clamp(significant - 1 - Math.floor(Math.log10(Math.abs(value))), min, MAX_DECIMALS);
}

/** `$12,345.67`. */
export const usdText = (value: number): string => numberFormat(2, 2, true).format(value);
/** `+$12.34`, `-$12.34`, `$0.00`. */
export function signedUsdText(value: number): string {
  const text = usdText(Math.abs(value));
  if (text === usdText(0)) return text;
  // Stryker disable next-line EqualityOperator: equivalent, `>=` differs at zero only, which returned above ($0.00 has no sign); the `<=` twin is covered by the condition's true/false mutants, which stay.
  return `${value > 0 ? '+' : '-'}${text}`;
}
/** `$3,455.12`, `$0.3612`, `$0.00001234`: a coin's price, four significant digits, 2 to 8 decimals. */
export function priceText(value: number): string {
  const decimals = decimalsFor(value, 4, 2);
  return numberFormat(decimals, decimals, true).format(value);
}
/** `20.70%` (`decimals` 2 by default). */
export const percentText = (value: number, decimals = 2): string => `${numberFormat(decimals, decimals).format(value)}%`;
/** `+1.23%`, `-0.50%`, `0.00%`. */
export function signedPercentText(value: number, decimals = 2): string {
  const text = numberFormat(decimals, decimals).format(Math.abs(value));
  if (Number(text.replace(/,/g, '')) === 0) return `${text}%`;
  // Stryker disable next-line EqualityOperator: equivalent, `>=` differs at zero only, which returned above (0.00% has no sign); the `<=` twin is covered by the condition's true/false mutants, which stay.
  return `${value > 0 ? '+' : '-'}${text}%`;
}
/** `5%`, `2.5%`: a percentage someone set, as set (no trailing zeros, at most 2 decimals). */
export const plainPercentText = (value: number): string => `${numberFormat(0, 2).format(value)}%`;
/** `0.5000 ETH`, `0.00001234 BTC`. */
export function quantityText(value: number, symbol: string): string {
  return `${numberFormat(4, decimalsFor(value, 4, 4)).format(value)} ${symbol}`;
}
/** `12`, `1,250`. */
export const countText = (value: number): string => numberFormat(0, 0).format(value);
/** `2.5`, `0.83`: a plain number to at most `decimals` decimals. */
export const numberText = (value: number, decimals = 2): string => numberFormat(0, decimals).format(value);
/** `2026-03-04 14:05 UTC`. */
export function timeText(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function make(id: string, label: string, value: Fact['value'], unit: FactUnit, text: string, where: Where): Fact {
  return { id, label, value, unit, text, source: where.source, api: where.api };
}

/** Fact constructors, one per unit. */
export const facts = {
  usd: (id: string, label: string, value: number, where: Where) => make(id, label, value, 'usd', usdText(value), where),
  signedUsd: (id: string, label: string, value: number, where: Where) => make(id, label, value, 'usd', signedUsdText(value), where),
  price: (id: string, label: string, value: number, where: Where) => make(id, label, value, 'price', priceText(value), where),
  percent: (id: string, label: string, value: number, where: Where, decimals = 2) => make(id, label, value, 'percent', percentText(value, decimals), where),
  signedPercent: (id: string, label: string, value: number, where: Where, decimals = 2) => make(id, label, value, 'percent', signedPercentText(value, decimals), where),
  plainPercent: (id: string, label: string, value: number, where: Where) => make(id, label, value, 'percent', plainPercentText(value), where),
  quantity: (id: string, label: string, value: number, symbol: string, where: Where) => make(id, label, value, 'quantity', quantityText(value, symbol), where),
  count: (id: string, label: string, value: number, where: Where) => make(id, label, value, 'count', countText(value), where),
  number: (id: string, label: string, value: number, where: Where, decimals = 2) => make(id, label, value, 'number', numberText(value, decimals), where),
  text: (id: string, label: string, value: string, where: Where) => make(id, label, value, 'text', value, where),
  time: (id: string, label: string, iso: string, where: Where) => make(id, label, iso, 'time', timeText(iso), where),
};

/** Every fact in a tool's result (its fields, at any depth, in order), each once. */
export function collectFacts(value: unknown, into: Fact[] = [], seen = new Set<Fact>()): Fact[] {
  if (value === null || typeof value !== 'object') return into;
  if (isFact(value)) {
    if (!seen.has(value)) {
      seen.add(value);
      into.push(value);
    }
    return into;
  }
  const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) collectFacts(child, into, seen);
  return into;
}

export function isFact(value: unknown): value is Fact {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Partial<Fact>;
  return typeof v.id === 'string' && typeof v.text === 'string' && typeof v.unit === 'string' && typeof v.source === 'string' && typeof v.api === 'string' && 'value' in v;
}

/**
 * The numbers written in a text, as written (`$1,234.56` gives `1,234.56`; `2026-03-04` gives
 * `2026`, `03`, `04`): what the grounding check looks for among the facts' texts. Digits that end a
 * name (`SMA20`, `EMA20`, `ATR14`: letters right before them) are part of the name, not a figure.
 */
export function numbersIn(text: string): string[] {
  return text.match(/(?<![\p{L}\d])\d[\d,]*(?:\.\d+)?/gu)?.map((n) => n.replace(/,+$/, '')) ?? [];
}
