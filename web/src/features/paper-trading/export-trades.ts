/**
 * The Export Data action, imported on click (import()) with papaparse: fetches every trade (not
 * only the page on screen), builds the CSV and hands it to the browser as a download.
 */
import { saveCsvFile } from '../../lib/save-file';
import { getAllTrades } from './api/get-trades';
import { csvFilename, tradesCsv } from './trades-csv';

export async function downloadTradesCsv(now: Date = new Date()): Promise<{ filename: string; rows: number }> {
  const trades = await getAllTrades();
  const filename = csvFilename(now);
  saveCsvFile(tradesCsv(trades), filename);
  return { filename, rows: trades.length };
}
