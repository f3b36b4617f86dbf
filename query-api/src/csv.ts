/**
 * CSV answers of the list endpoints (signals, admin users, audit timelines), one way:
 *
 * - asked for by `?format=csv`, or by an Accept header that prefers text/csv over JSON (`format`
 *   wins when both are sent);
 * - with `page` or `pageSize` the CSV holds that page; without them the whole filtered list in the
 *   JSON's order, read from the store in pages of CSV_READ_ROWS, at most CSV_MAX_ROWS rows
 *   (X-Csv-Truncated: true when the list is longer); X-Total-Count is every match either way;
 * - papaparse's quoting, CRLF line breaks (RFC 4180), and formula injection escaped: a text cell
 *   whose first character is in FORMULA_START gets a leading quote, so a spreadsheet shows `=cmd()`
 *   as text instead of running it (the same writer settings as the web app's lib/csv.ts);
 * - `Content-Disposition: attachment; filename="<name>-<UTC date>.csv"` (or `-page-N` for a page).
 */
import type { Context } from 'koa';
import Papa from 'papaparse';
import { CSV_MAX_ROWS, type ListFormat } from '@papertrade/domain/shared/list-format';

/** Rows per read while a whole list is exported. */
export const CSV_READ_ROWS = 1_000;

export type CsvCell = string | number | boolean | null;

export function wantsCsv(ctx: Context, format: ListFormat): boolean {
  if (format) return format === 'csv';
  return ctx.accepts('application/json', 'text/csv') === 'text/csv';
}

/** Whether the request names a page: then a CSV holds that page, else the whole list. */
export function pageAsked(ctx: Context): boolean {
  return ctx.query.page !== undefined || ctx.query.pageSize !== undefined;
}

/**
 * A text cell a spreadsheet could run as a formula, judged by its first character alone, whatever
 * follows: OWASP's CSV Injection guidance (https://owasp.org/www-community/attacks/CSV_Injection)
 * names = + - @ tab and carriage return, and its remedy, a leading apostrophe (the cell is then
 * quoted). papaparse's own `escapeFormulae: true` pattern is /^[=+\-@\t\r].*$/, whose `.*$` cannot
 * cross a line feed, carriage return, U+2028 or U+2029, so a name holding one went out unescaped.
 * The full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20) are escaped too: they are rare at the start
 * of a real name, cost nothing to escape, and a spreadsheet that folds width on input (East Asian
 * input settings can) would read them as the ASCII ones. Numbers are not cells of this kind: a
 * negative P&L stays a number. Keep in step with web/src/lib/csv.ts.
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function writeCsv(fields: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}

/**
 * The whole list, `readRows(skip, limit)` page after page in the list's order, until a short page or
 * CSV_MAX_ROWS rows (`max`, for tests).
 */
export async function readWholeList<T>(readRows: (skip: number, limit: number) => Promise<T[]>, max = CSV_MAX_ROWS): Promise<T[]> {
  const rows: T[] = [];
  while (rows.length < max) {
    const limit = Math.min(CSV_READ_ROWS, max - rows.length);
    const page = await readRows(rows.length, limit);
    rows.push(...page);
    if (page.length < limit) break;
  }
  return rows;
}

/** `<name>-2026-11-22.csv` (the UTC date), or `<name>-page-3.csv` for one page. */
export function csvFilename(name: string, at: Date, page?: number): string {
  return page === undefined ? `${name}-${at.toISOString().slice(0, 10)}.csv` : `${name}-page-${page}.csv`;
}

export function sendCsv(ctx: Context, answer: { filename: string; fields: readonly string[]; rows: readonly (readonly CsvCell[])[]; total: number; truncated?: boolean }): void {
  ctx.type = 'text/csv; charset=utf-8';
  // The names are ours (ids, symbols, dates), never the user's text: nothing to quote in them.
  ctx.set('Content-Disposition', `attachment; filename="${answer.filename}"`);
  ctx.set('X-Total-Count', String(answer.total));
  if (answer.truncated) ctx.set('X-Csv-Truncated', 'true');
  ctx.body = writeCsv(answer.fields, answer.rows);
}
