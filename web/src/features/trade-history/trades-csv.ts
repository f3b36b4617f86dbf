/**
 * The Trade History export: the filtered trades as CSV (lib/csv.ts writes and escapes it; loaded on
 * click, so the screen's bundle does not carry papaparse). Dollar values are each trade's amount at
 * its own fill price. Numbers are plain (csvNumber): no separators, and a price keeps every digit.
 * Entry Price and Remaining follow the lots: a BUY's fill price and what it still holds; a SELL's
 * entry price of what it sold (Remaining empty).
 */
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { datedCsvFilename, writeCsv } from '../../lib/csv';
import { csvNumber } from '../../lib/number-format';
import { signalSource } from './trade-labels';

export const TRADE_CSV_COLUMNS = ['Time', 'Type', 'Symbol', 'Amount', 'Price', 'Value', 'Fee', 'Signal Source', 'P&L', 'Status', 'Entry Price', 'Remaining'] as const;

export function tradesToCsv(trades: readonly Trade[]): string {
  return writeCsv(
    TRADE_CSV_COLUMNS,
    trades.map((t) => [t.timestamp, t.type, t.symbol, csvNumber(t.amount), csvNumber(t.price), csvNumber(t.value), csvNumber(t.fee), signalSource(t), csvNumber(t.pnl) ?? '', t.status, csvNumber(t.entryPrice), csvNumber(t.remainingQuantity) ?? '']),
  );
}

/** `trade-history-2026-03-04.csv` (the local date of the download). */
export function csvFileName(now: Date): string {
  return datedCsvFilename('trade-history', now);
}
