import { expect } from 'chai';
import Papa from 'papaparse';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { csvFileName, TRADE_CSV_COLUMNS, tradesToCsv } from './trades-csv';

const trade = (over: Partial<Trade>): Trade => ({
  id: 't1',
  type: 'BUY',
  symbol: 'ETH',
  coinId: 'ethereum',
  amount: 0.5,
  quantity: 0.5,
  price: 3000,
  value: 1500,
  entryPrice: 3000,
  fee: 1.5,
  pnl: -12.34,
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
  ...over,
});

describe('trade history CSV', () => {
  it('writes the header and one row per trade, values at each trade\'s own price, negative P&L as a number', () => {
    const csv = tradesToCsv([
      trade({ remainingQuantity: 0.3, soldQuantity: 0.2 }),
      trade({ id: 't2', type: 'SELL', symbol: 'BTC', coinId: 'bitcoin', amount: 0.01, quantity: 0.01, price: 60000, value: 600, entryPrice: 59000, pnl: null, status: 'CLOSED', source: 'SELL signal', remainingQuantity: null, soldQuantity: null, lotRule: 'FIFO' }),
    ]);
    const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(rows[0]).to.deep.equal([...TRADE_CSV_COLUMNS]);
    // A BUY partly sold: its fill price as entry, and what its lot still holds.
    expect(rows[1]).to.deep.equal(['2026-03-04T10:00:00.000Z', 'BUY', 'ETH', '0.5', '3000', '1500', '1.5', 'Manual', '-12.34', 'OPEN', '3000', '0.3']);
    expect(rows[2]).to.deep.equal(['2026-03-04T10:00:00.000Z', 'SELL', 'BTC', '0.01', '60000', '600', '1.5', 'SELL signal', '', 'CLOSED', '59000', '']);
  });

  it("keeps every digit of a coin's price under a dollar, no thousands separators, no exponent", () => {
    const rows = Papa.parse<string[]>(tradesToCsv([trade({ symbol: 'MATIC', coinId: 'polygon', amount: 0.00000012, quantity: 0.00000012, price: 0.36123456, value: 1234567.89 })]), { skipEmptyLines: true }).data;
    expect(rows[1]!.slice(2, 6)).to.deep.equal(['MATIC', '0.00000012', '0.36123456', '1234567.89']);
  });

  it('reads a blank signal source as Manual', () => {
    const rows = Papa.parse<string[]>(tradesToCsv([trade({ source: ' ' })]), { skipEmptyLines: true }).data;
    expect(rows[1]![7]).to.equal('Manual');
  });

  it('defuses text a spreadsheet would run as a formula (CSV injection), and quotes commas and quotes', () => {
    const csv = tradesToCsv([trade({ source: '=HYPERLINK("http://x","y")' }), trade({ source: '@SUM(A1)' }), trade({ source: 'a, "b"' })]);
    const rows = Papa.parse<string[]>(csv, { skipEmptyLines: true }).data;
    expect(rows[1]![7]).to.equal(`'=HYPERLINK("http://x","y")`);
    expect(rows[2]![7]).to.equal(`'@SUM(A1)`);
    expect(rows[3]![7]).to.equal('a, "b"');
  });

  it('names the file with the date', () => {
    expect(csvFileName(new Date(2026, 2, 4, 23, 59))).to.equal('trade-history-2026-03-04.csv');
  });
});
