/**
 * The one way the web app writes a spreadsheet file (the trade exports of the dashboard and of Trade
 * History): papaparse's quoting (commas, quotes and line breaks inside cells), CRLF line breaks (RFC
 * 4180's, read by every spreadsheet), and CSV injection escaped: a text cell whose first character
 * is in FORMULA_START is prefixed with a quote so a spreadsheet shows it instead of running it as a
 * formula. Numbers stay numbers, so a negative P&L is still -12.34 and sums in the sheet.
 * Import it only from modules loaded on click (import()), so papaparse stays out of screen bundles.
 */
import Papa from 'papaparse';

export type CsvCell = string | number | null;

/**
 * Judged by the first character alone, whatever follows (OWASP's CSV Injection guidance:
 * https://owasp.org/www-community/attacks/CSV_Injection): = + - @ tab carriage return, and their
 * full-width forms, which a spreadsheet folding width on input would read as the ASCII ones.
 * papaparse's `escapeFormulae: true` pattern ends in `.*$`, which cannot cross a line break, U+2028 or
 * U+2029, so a cell holding one was not escaped. The same pattern as query-api/src/csv.ts.
 */
export const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function writeCsv(fields: readonly string[], rows: readonly CsvCell[][]): string {
  return Papa.unparse({ fields: [...fields], data: rows.map((r) => [...r]) }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}

/** `<prefix>-2026-11-22.csv`: the viewer's local date, the day they exported it. */
export function datedCsvFilename(prefix: string, now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${prefix}-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
