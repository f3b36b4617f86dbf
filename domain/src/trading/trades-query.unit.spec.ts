/**
 * GET /api/trades query string as Trade History and a CSV export send it: page from 1 (default 1),
 * page size 1 to 100 (default 20), a coin by id or by symbol in any case (both must agree), status and
 * type in any case, and a period from / to (inclusive) as ISO dates or date-times, a bare `to` date
 * taking in its whole UTC day; anything else is a 400 that says which parameter and why.
 */
import { expect } from 'chai';
import { tradesQuerySchema } from './read-contracts';

const issues = (query: unknown) => {
  const parsed = tradesQuerySchema.safeParse(query);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const DAY = 86_400_000;

describe('trades query', function () {
  it('defaults: page 1 of 20, every coin, status, type and time', function () {
    expect(tradesQuerySchema.parse({})).to.deep.equal({ page: 1, pageSize: 20, symbol: undefined, status: undefined, type: undefined, fromMs: undefined, toMs: undefined, format: undefined });
  });

  it('page and page size: whole numbers from 1, the size at most 100, each given once', function () {
    expect(tradesQuerySchema.parse({ page: '12', pageSize: '100' })).to.deep.include({ page: 12, pageSize: 100 });
    expect(issues({ pageSize: '101' })).to.deep.equal(['pageSize: must be a whole number from 1 to 100']);
    expect(issues({ pageSize: '0' })).to.deep.equal(['pageSize: must be a whole number from 1 to 100']);
    expect(issues({ page: '1.5' })).to.deep.equal(['page: must be a whole number from 1']);
    expect(issues({ page: '-1' })).to.deep.equal(['page: must be a whole number from 1']);
    expect(issues({ page: ['1', '2'] })).to.deep.equal(['page: must be given once']);
  });

  it('the coin: by symbol in any case, or by id (read as its symbol); both must name one coin', function () {
    expect(tradesQuerySchema.parse({ symbol: 'matic' }).symbol).to.equal('MATIC');
    expect(tradesQuerySchema.parse({ coinId: 'bitcoin' }).symbol).to.equal('BTC');
    expect(tradesQuerySchema.parse({ coinId: 'cardano', symbol: 'Ada' }).symbol).to.equal('ADA');
    expect(issues({ coinId: 'bitcoin', symbol: 'ETH' })).to.deep.equal(['symbol: does not match coinId bitcoin']);
    expect(issues({ coinId: 'dogecoin' })).to.deep.equal(['coinId: unknown coin id "dogecoin"']);
  });

  it('status and type in any case; other words refused with the choices', function () {
    expect(tradesQuerySchema.parse({ status: 'open', type: 'Sell' })).to.deep.include({ status: 'OPEN', type: 'SELL' });
    expect(issues({ status: 'pending' })).to.deep.equal(['status: must be OPEN or CLOSED']);
    expect(issues({ type: 'hold' })).to.deep.equal(['type: must be BUY or SELL']);
  });

  it('the period: from inclusive, a to date-time inclusive, a bare to date its whole UTC day; to before from refused', function () {
    const q = tradesQuerySchema.parse({ from: '2026-03-04', to: '2026-03-05' });
    expect(q.fromMs).to.equal(Date.UTC(2026, 2, 4));
    expect(q.toMs, 'the whole of 5 March, exclusive bound at the 6th').to.equal(Date.UTC(2026, 2, 5) + DAY);
    const instant = tradesQuerySchema.parse({ from: '2026-03-04T10:00:00Z', to: '2026-03-04T10:00:00.500Z' });
    expect(instant).to.deep.include({ fromMs: Date.UTC(2026, 2, 4, 10), toMs: Date.UTC(2026, 2, 4, 10) + 501 });
    expect(issues({ from: '2026-03-04T10:00:00Z', to: '2026-03-04T10:00:00Z' }), 'one instant').to.deep.equal([]);
    expect(issues({ from: '2026-03-05', to: '2026-03-04T23:59:59Z' })).to.deep.equal(['to: must not be before from']);
    expect(issues({ from: '2026-03-05' }), 'from alone').to.deep.equal([]);
    expect(issues({ to: '2026-03-05' }), 'to alone').to.deep.equal([]);
  });

  it('dates that are not on the calendar or not ISO are refused, whatever Date.parse makes of them', function () {
    // Day 0, day 32, month 0, a year Date.UTC reads as 19xx, text before the date: each off the calendar or not ISO.
    for (const text of ['2026-02-30', '2026-13-01', '2025-02-29', '04/03/2026', 'March 4, 2026', '2026-03-04 10:00', '2026-03-04Tnoon', '20260304', '2026-03-00', '2026-01-32', '2026-00-10', '0099-01-01', 'x2026-03-04']) {
      expect(issues({ from: text }), text).to.deep.equal(['from: must be an ISO-8601 date (2026-03-04) or date-time']);
    }
    expect(issues({ from: '2024-02-29' }), 'a leap day').to.deep.equal([]);
    expect(issues({ to: '2026-12-31T23:59:59.999Z' })).to.deep.equal([]);
    expect(issues({ from: ['2026-03-04', '2026-03-05'] })).to.deep.equal(['from: must be given once']);
  });

  it('CSV or JSON, and nothing else is a parameter', function () {
    expect(tradesQuerySchema.parse({ format: 'csv' }).format).to.equal('csv');
    expect(issues({ format: 'xml' })).to.deep.equal(['format: must be json or csv']);
    expect(issues({ sort: 'price' })).to.have.length(1);
  });
});
