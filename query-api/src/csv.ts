/**
 * CSV answers of the list endpoints (signals, admin users, audit timelines), one way:
 *
 * - asked for by `?format=csv`, or by an Accept header that prefers text/csv over JSON (`format`
 *   wins when both are sent);
 * - with `page` or `pageSize` the CSV holds that page; without them the whole filtered list in the
 *   JSON's order, read from the store in pages of CSV_READ_ROWS, at most CSV_MAX_ROWS rows
 *   (X-Csv-Truncated: true when the list is longer); X-Total-Count is every match either way;
 * - papaparse's quoting, CRLF line breaks (RFC 4180), and formula injection escaped: a text cell
 *   starting with = + - @ (or a tab or carriage return) gets a leading quote, so a spreadsheet shows
 *   `=cmd()` as text instead of running it (the same writer settings as the web app's lib/csv.ts);
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

export function writeCsv(fields: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { escapeFormulae: true, newline: '\r\n' });
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
