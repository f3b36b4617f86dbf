/**
 * The CSV export of the paper trades (spec section 9): columns Type, Date, Symbol, Price, Quantity,
 * PnL, Status, and a filename that includes the date. Writing and escaping are lib/csv.ts's.
 * Loaded lazily with the export (import()), so papaparse is not in the dashboard's bundle.
 */
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { datedCsvFilename, writeCsv, type CsvCell } from '../../lib/csv';

export const CSV_COLUMNS = ['Type', 'Date', 'Symbol', 'Price', 'Quantity', 'PnL', 'Status'] as const;

/** One row per trade: the fill price, the coins traded, the P&L (empty when the trade has none). */
export function tradeRow(trade: Trade): CsvCell[] {
  return [trade.type, trade.timestamp, trade.symbol, trade.price, trade.quantity, trade.pnl, trade.status];
}

export function tradesCsv(trades: readonly Trade[]): string {
  return writeCsv(CSV_COLUMNS, trades.map(tradeRow));
}

/** `paper-trades-2026-11-22.csv` (the viewer's local date: the day they exported it). */
export function csvFilename(now: Date): string {
  return datedCsvFilename('paper-trades', now);
}
