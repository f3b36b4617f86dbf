/**
 * `?format=json|csv` of the read endpoints that return lists (what a person would want in a spreadsheet:
 * signals, audit timelines, admin users). Without it the Accept header decides (query-api/src/csv.ts).
 */
import { z } from 'zod';

export const listFormatParam = z.enum(['json', 'csv'], { error: 'must be json or csv' }).optional();
export type ListFormat = z.infer<typeof listFormatParam>;

/**
 * The most rows one CSV export of a whole list holds (a CSV without page or pageSize): the filtered
 * list, newest first, cut here; X-Total-Count still says how many matched, and X-Csv-Truncated that
 * it was cut. Narrow the filter, or page (page and pageSize export that page), to get the rest.
 */
export const CSV_MAX_ROWS = 10_000;
