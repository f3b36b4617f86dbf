/**
 * The CSV export of the paper trades (spec section 9): columns Type, Date, Symbol, Price, Quantity,
 * PnL, Status, and a filename that includes the date. Writing and escaping are lib/csv.ts's.
 * Loaded lazily with the export (import()), so papaparse is not in the dashboard's bundle.
 */
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { datedCsvFilename, writeCsv, type CsvCell } from '../../lib/csv';
import { csvNumber } from '../../lib/number-format';

export const CSV_COLUMNS = ['Type', 'Date', 'Symbol', 'Price', 'Quantity', 'PnL', 'Status'] as const;

/**
 * One row per trade: the fill price (every digit: a coin under a dollar keeps its precision), the
 * coins traded, the P&L (empty when the trade has none); plain numbers, no separators (csvNumber).
 */
export function tradeRow(trade: Trade): CsvCell[] {
  return [trade.type, trade.timestamp, trade.symbol, csvNumber(trade.price), csvNumber(trade.quantity), csvNumber(trade.pnl), trade.status];
}

export function tradesCsv(trades: readonly Trade[]): string {
  return writeCsv(CSV_COLUMNS, trades.map(tradeRow));
}

/** `paper-trades-2026-11-22.csv` (the viewer's local date: the day they exported it). */
export function csvFilename(now: Date): string {
  return datedCsvFilename('paper-trades', now);
}
