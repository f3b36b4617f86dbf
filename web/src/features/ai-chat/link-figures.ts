/**
 * Figures in an answer link to the screen they come from: each fact's text (`$10,234.56`, `2.35%`,
 * `0.5000 ETH`) is found in the answer and becomes a link to the fact's `source`. Longer texts claim
 * first, so `$3,038.00` is never split by a shorter figure inside it; a text counts only where it
 * stands whole (`3` is not linked inside `30`, `2.5` not inside `12.55`); only facts holding a digit
 * are linked (a name or a verdict is not a figure).
 */
import type { Fact } from '@papertrade/domain/assistant/contracts';

export type Segment = { text: string; fact?: undefined } | { text: string; fact: Fact };

const WORD = /[\p{L}\p{N}]/u;
const DIGIT = /\d/;

/** Whether `text[at, end)` is not a piece of a longer word or number. */
function standsWhole(text: string, at: number, end: number): boolean {
  const first = text[at]!;
  const last = text[end - 1]!;
  const before = text[at - 1] ?? '';
  const after = text[end] ?? '';
  if (WORD.test(first) && WORD.test(before)) return false;
  if (DIGIT.test(first) && (before === '.' || before === ',') && DIGIT.test(text[at - 2] ?? '')) return false;
  if (WORD.test(last) && WORD.test(after)) return false;
  if (DIGIT.test(last) && (after === '.' || after === ',') && DIGIT.test(text[end + 1] ?? '')) return false;
  return true;
}

export function linkFigures(text: string, facts: readonly Fact[]): Segment[] {
  const figures = facts.filter((f) => DIGIT.test(f.text)).sort((a, b) => b.text.length - a.text.length);
  const claims: Array<{ start: number; end: number; fact: Fact }> = [];
  for (const fact of figures) {
    for (let at = text.indexOf(fact.text); at !== -1; at = text.indexOf(fact.text, at + 1)) {
      const end = at + fact.text.length;
      if (!standsWhole(text, at, end)) continue;
      if (claims.some((c) => at < c.end && end > c.start)) continue;
      claims.push({ start: at, end, fact });
    }
  }
  claims.sort((a, b) => a.start - b.start);
  const segments: Segment[] = [];
  let cursor = 0;
  for (const c of claims) {
    if (c.start > cursor) segments.push({ text: text.slice(cursor, c.start) });
    segments.push({ text: text.slice(c.start, c.end), fact: c.fact });
    cursor = c.end;
  }
  if (cursor < text.length) segments.push({ text: text.slice(cursor) });
  return segments;
}
