/**
 * Hands a CSV text to the browser as a download (the trade exports, the audit timeline, the admin
 * users list). A BOM first, so spreadsheet programs read the file as UTF-8; the object URL is
 * released on the next task, once the click has started the download.
 */
export function saveCsvFile(csv: string, filename: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
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
