/**
 * The one way the web app hands a file it made to the browser as a download (the trade exports of
 * the dashboard and of Trade History, the audit timeline): a blob URL on a hidden link, clicked, and
 * the URL released on the next turn (the click has already handed the blob to the download).
 * Nothing here writes CSV (lib/csv.ts does, with papaparse), so screens that only download a file
 * the server wrote, like the Admin Panel's timeline, do not carry papaparse.
 */

/** Downloads `content` as `filename`. */
export function downloadBlob(filename: string, content: Blob): void {
  const url = URL.createObjectURL(content);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** Downloads CSV text as `filename`, with a BOM so spreadsheet programs read it as UTF-8. */
export function downloadCsv(filename: string, csv: string): void {
  downloadBlob(filename, new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
}
