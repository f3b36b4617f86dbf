/**
 * The CSV export of the paper trades (spec section 9): columns Type, Date, Symbol, Price, Quantity,
 * PnL, Status, and a filename that includes the date. Quoting is papaparse's (commas, quotes and
 * line breaks inside cells). CSV injection: a text cell starting with = + - @ (or a tab / carriage
 * return) is prefixed with a quote so a spreadsheet shows it instead of running it as a formula;
 * numbers are written as numbers, so a negative P&L stays -12.34 and sums in the sheet.
 * Loaded lazily with the export (import()), so papaparse is not in the dashboard's bundle.
 */
import Papa from 'papaparse';
import type { Trade } from '@papertrade/domain/trading/read-contracts';

export const CSV_COLUMNS = ['Type', 'Date', 'Symbol', 'Price', 'Quantity', 'PnL', 'Status'] as const;

type Cell = string | number | null;

/** One row per trade: the fill price, the coins traded, the P&L (empty when the trade has none). */
export function tradeRow(trade: Trade): Cell[] {
  return [trade.type, trade.timestamp, trade.symbol, trade.price, trade.quantity, trade.pnl, trade.status];
}

export function tradesCsv(trades: readonly Trade[]): string {
  return Papa.unparse(
    { fields: [...CSV_COLUMNS], data: trades.map(tradeRow) },
    // CRLF is RFC 4180's line break; spreadsheets read it everywhere.
    { escapeFormulae: true, newline: '\r\n', quotes: false },
  );
}

/** `paper-trades-2026-11-22.csv` (the viewer's local date: the day they exported it). */
export function csvFilename(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `paper-trades-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
