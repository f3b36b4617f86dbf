/**
 * The Export Data action, imported on click (import()) with papaparse: fetches every trade (not
 * only the page on screen), builds the CSV and hands it to the browser as a download.
 */
import { getAllTrades } from './api/get-trades';
import { csvFilename, tradesCsv } from './trades-csv';

export async function downloadTradesCsv(now: Date = new Date()): Promise<{ filename: string; rows: number }> {
  const trades = await getAllTrades();
  // A BOM so spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', tradesCsv(trades)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const filename = csvFilename(now);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has started the download; the URL can go after this task.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return { filename, rows: trades.length };
}
