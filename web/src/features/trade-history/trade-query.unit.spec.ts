import { expect } from 'chai';
import { tradesQuerySchema } from '@papertrade/domain/trading/read-contracts';
import { EMPTY_FILTER, filterError, isFilterActive, tradesSearchParams } from './trade-query';

describe('trade history query', () => {
  it('asks for one page of everything with no filter and the All tab', () => {
    expect(tradesSearchParams(EMPTY_FILTER, 'ALL', 1, 25).toString()).to.equal('page=1&pageSize=25');
    expect(isFilterActive(EMPTY_FILTER)).to.equal(false);
  });

  it('sends the tab as the type and every filter field, in a form the server contract accepts', () => {
    const filter = { symbol: 'BTC', status: 'CLOSED', from: '2026-03-01', to: '2026-03-04' } as const;
    const params = tradesSearchParams(filter, 'SELL', 3, 100);
    expect(Object.fromEntries(params)).to.deep.equal({ page: '3', pageSize: '100', type: 'SELL', symbol: 'BTC', status: 'CLOSED', from: '2026-03-01', to: '2026-03-04' });
    const parsed = tradesQuerySchema.parse(Object.fromEntries(params));
    expect(parsed).to.include({ page: 3, pageSize: 100, type: 'SELL', symbol: 'BTC', status: 'CLOSED' });
    // `to` is a bare date: the whole UTC day is included.
    expect(parsed.toMs).to.equal(Date.parse('2026-03-05T00:00:00Z'));
    expect(isFilterActive(filter)).to.equal(true);
  });

  it('leaves out half-typed dates, and names a range that ends before it starts', () => {
    expect(tradesSearchParams({ ...EMPTY_FILTER, from: '2026-0' }, 'BUY', 1, 25).toString()).to.equal('page=1&pageSize=25&type=BUY');
    expect(filterError({ ...EMPTY_FILTER, from: '2026-03-04', to: '2026-03-01' })).to.equal('The end date is before the start date');
    expect(filterError({ ...EMPTY_FILTER, from: '2026-03-04', to: '2026-03-04' })).to.equal(null);
  });
});
