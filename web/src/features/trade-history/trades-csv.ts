/**
 * The Trade History export: the filtered trades as CSV, written by papaparse (loaded on click, so
 * the screen's bundle does not carry it). Text cells that a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) are prefixed with a quote (papaparse's
 * `escapeFormulae`); numbers stay numbers. Dollar values are each trade's amount at its own fill price.
 */
import Papa from 'papaparse';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { signalSource } from './trade-labels';

export const TRADE_CSV_COLUMNS = ['Time', 'Type', 'Symbol', 'Amount', 'Price', 'Value', 'Fee', 'Signal Source', 'P&L', 'Status'] as const;

export function tradesToCsv(trades: readonly Trade[]): string {
  return Papa.unparse(
    {
      fields: [...TRADE_CSV_COLUMNS],
      data: trades.map((t) => [t.timestamp, t.type, t.symbol, t.amount, t.price, t.value, t.fee, signalSource(t), t.pnl ?? '', t.status]),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
}

/** `trade-history-2026-03-04.csv` (the local date of the download). */
export function csvFileName(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `trade-history-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.csv`;
}
