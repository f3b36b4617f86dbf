import { expect } from 'chai';
import Papa from 'papaparse';
import type { Trade } from '@papertrade/domain/trading/read-contracts';
import { CSV_COLUMNS, csvFilename, tradeRow, tradesCsv } from './trades-csv';

function trade(overrides: Partial<Trade> = {}): Trade {
  return {
    id: 't1',
    type: 'BUY',
    symbol: 'ETH',
    coinId: 'ethereum',
    amount: 0.5,
    quantity: 0.5,
    price: 3120.5,
    value: 1560.25,
    entryPrice: 3120.5,
    fee: 1.56,
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
    timestamp: '2026-11-22T10:15:00.000Z',
    remainingQuantity: 0.5,
    soldQuantity: 0,
    lotRule: null,
    lots: [],
    decision: null,
    exits: null,
    execution: null,
    ...overrides,
  };
}

describe('paper-trading: CSV export (spec section 9)', () => {
  it('has the header Type, Date, Symbol, Price, Quantity, PnL, Status and one row per trade', () => {
    const csv = tradesCsv([trade(), trade({ id: 't2', type: 'SELL', price: 3200, quantity: 0.25, amount: 0.25, pnl: 18.5, pnlRealised: true, status: 'CLOSED' })]);
    const lines = csv.split('\r\n');
    expect(lines[0]).to.equal('Type,Date,Symbol,Price,Quantity,PnL,Status');
    expect(lines[1]).to.equal('BUY,2026-11-22T10:15:00.000Z,ETH,3120.5,0.5,-12.34,OPEN');
    expect(lines[2]).to.equal('SELL,2026-11-22T10:15:00.000Z,ETH,3200,0.25,18.5,CLOSED');
    expect(lines).to.have.length(3);
    expect([...CSV_COLUMNS]).to.deep.equal(['Type', 'Date', 'Symbol', 'Price', 'Quantity', 'PnL', 'Status']);
  });

  it('leaves the P&L empty for a closed BUY (its P&L is on the SELL), never 0', () => {
    expect(tradeRow(trade({ pnl: null, status: 'CLOSED' }))[5]).to.equal(null);
    expect(tradesCsv([trade({ pnl: null, status: 'CLOSED' })]).split('\r\n')[1]).to.equal('BUY,2026-11-22T10:15:00.000Z,ETH,3120.5,0.5,,CLOSED');
  });

  it('keeps a negative P&L a number, but neutralises text cells a spreadsheet would run as formulas', () => {
    // Text cells come from the server; a hostile one must not become a formula.
    const hostile = trade({ status: '=HYPERLINK("http://x")' as Trade['status'], symbol: '+SUM(A1)' as Trade['symbol'], type: '@cmd' as Trade['type'] });
    const parsed = Papa.parse<string[]>(tradesCsv([hostile]).trim(), { skipEmptyLines: true }).data;
    expect(parsed[1]![0]).to.equal("'@cmd");
    expect(parsed[1]![2]).to.equal("'+SUM(A1)");
    expect(parsed[1]![5]).to.equal('-12.34');
    expect(parsed[1]![6]).to.equal(`'=HYPERLINK("http://x")`);
    const minus = Papa.parse<string[]>(tradesCsv([trade({ status: '-1+1' as Trade['status'] })]).trim()).data;
    expect(minus[1]![6]).to.equal("'-1+1");
  });

  it("keeps every digit of a coin's price under a dollar and writes a tiny amount without an exponent", () => {
    const line = tradesCsv([trade({ symbol: 'MATIC', coinId: 'polygon', price: 0.36123456, quantity: 0.00000012, amount: 0.00000012 })]).split('\r\n')[1];
    expect(line).to.equal('BUY,2026-11-22T10:15:00.000Z,MATIC,0.36123456,0.00000012,-12.34,OPEN');
  });

  it('quotes commas, quotes and line breaks inside a cell', () => {
    const csv = tradesCsv([trade({ status: 'a,"b"\nc' as Trade['status'] })]);
    expect(csv).to.contain('"a,""b""\nc"');
    expect(Papa.parse<string[]>(csv).data[1]![6]).to.equal('a,"b"\nc');
  });

  it('names the file with the date of the export', () => {
    expect(csvFilename(new Date(2026, 10, 2, 23, 59))).to.equal('paper-trades-2026-11-02.csv');
  });
});
