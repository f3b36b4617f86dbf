/**
 * Every trade of GET /api/trades that matches a filter, page by page at the largest page size the
 * server allows (newest first): the exports of the dashboard and of Trade History read them all,
 * not only the page on screen. A trade placed while the pages are read may shift one across a page
 * boundary; duplicates are dropped by id.
 */
import { TRADES_MAX_PAGE_SIZE, tradesResponseSchema, type Trade } from '@papertrade/domain/trading/read-contracts';
import { getJson } from './api-client';

export const ALL_TRADES_PATH = '/api/trades';

/** `filter`: the list's query parameters (type, symbol, status, from, to); page and pageSize are this walker's. */
export async function getAllTrades(filter: URLSearchParams = new URLSearchParams(), signal?: AbortSignal): Promise<Trade[]> {
  const seen = new Set<string>();
  const all: Trade[] = [];
  for (let page = 1; ; page += 1) {
    const params = new URLSearchParams(filter);
    params.set('page', String(page));
    params.set('pageSize', String(TRADES_MAX_PAGE_SIZE));
    const res = await getJson(`${ALL_TRADES_PATH}?${params}`, tradesResponseSchema, { signal });
    for (const trade of res.trades) {
      if (seen.has(trade.id)) continue;
      seen.add(trade.id);
      all.push(trade);
    }
    if (page >= res.totalPages || res.trades.length === 0) return all;
  }
}
