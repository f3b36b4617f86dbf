/**
 * The one way the web app writes a spreadsheet file (the trade exports of the dashboard and of Trade
 * History): papaparse's quoting (commas, quotes and line breaks inside cells), CRLF line breaks (RFC
 * 4180's, read by every spreadsheet), and CSV injection escaped: a text cell starting with = + - @
 * (or a tab / carriage return) is prefixed with a quote so a spreadsheet shows it instead of running
 * it as a formula. Numbers stay numbers, so a negative P&L is still -12.34 and sums in the sheet.
 * Import it only from modules loaded on click (import()), so papaparse stays out of screen bundles.
 */
import Papa from 'papaparse';

export type CsvCell = string | number | null;

export function writeCsv(fields: readonly string[], rows: readonly CsvCell[][]): string {
  return Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { escapeFormulae: true, newline: '\r\n' });
}

/** `<prefix>-2026-11-22.csv`: the viewer's local date, the day they exported it. */
export function datedCsvFilename(prefix: string, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
