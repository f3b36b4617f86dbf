import { expect } from 'chai';
import { TRADES_MAX_PAGE_SIZE, type Trade } from '@papertrade/domain/trading/read-contracts';
import { getAllTrades } from './all-trades';

const trade = (id: string): Trade => ({
  id,
  type: 'BUY',
  symbol: 'ETH',
  coinId: 'ethereum',
  amount: 0.5,
  quantity: 0.5,
  price: 3000,
  value: 1500,
  entryPrice: 3000,
  fee: 1.5,
  pnl: null,
  pnlRealised: false,
  status: 'OPEN',
  source: 'Manual',
  signal: null,
  signalId: null,
  strategyId: null,
  strategyType: null,
  pairId: null,
  exchange: null,
  closeReason: null,
  closedAt: null,
  timestamp: '2026-03-04T10:00:00.000Z',
  remainingQuantity: 0.5,
  soldQuantity: 0,
  lotRule: null,
  lots: [],
  decision: null,
  exits: null,
  execution: null,
});
const summary = { totalTrades: 0, buys: 0, sells: 0, winRate: null, totalPnl: 0, avgTradeSize: 0 };

describe('all trades (the exports walk every page of GET /api/trades)', () => {
  const realFetch = globalThis.fetch;
  let asked: URL[];

  /** The server: `pages[n - 1]` is page n's trade ids. */
  function serve(pages: string[][]) {
    globalThis.fetch = (async (url: string | URL | Request) => {
      const u = new URL(String(url), 'http://app.test');
      asked.push(u);
      const page = Number(u.searchParams.get('page'));
      const ids = pages[page - 1] ?? [];
      const body = { demo: false, lotRule: 'FIFO', trades: ids.map(trade), total: pages.flat().length, page, pageSize: Number(u.searchParams.get('pageSize')), totalPages: pages.length, summary };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
  }

  beforeEach(() => (asked = []));
  afterEach(() => (globalThis.fetch = realFetch));

  it('reads every page at the largest page size, keeps the filter, and drops a trade that shifted across a page boundary', async () => {
    serve([['a', 'b'], ['b', 'c'], ['d']]);
    const trades = await getAllTrades(new URLSearchParams({ type: 'BUY', symbol: 'ETH', page: '7', pageSize: '5' }));
    expect(trades.map((t) => t.id)).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(asked.map((u) => u.pathname)).to.deep.equal(['/api/trades', '/api/trades', '/api/trades']);
    expect(asked.map((u) => [u.searchParams.get('page'), u.searchParams.get('pageSize'), u.searchParams.get('type'), u.searchParams.get('symbol')])).to.deep.equal([
      ['1', String(TRADES_MAX_PAGE_SIZE), 'BUY', 'ETH'],
      ['2', String(TRADES_MAX_PAGE_SIZE), 'BUY', 'ETH'],
      ['3', String(TRADES_MAX_PAGE_SIZE), 'BUY', 'ETH'],
    ]);
  });

  it('stops at an empty page even when the total said more (trades removed meanwhile), and asks once with none', async () => {
    serve([['a'], [], ['never']]);
    expect((await getAllTrades()).map((t) => t.id)).to.deep.equal(['a']);
    expect(asked).to.have.length(2);
    asked = [];
    serve([]);
    expect(await getAllTrades()).to.deep.equal([]);
    expect(asked).to.have.length(1);
  });
});
