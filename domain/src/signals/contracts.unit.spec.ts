/**
 * GET /api/signals and /api/indicators query strings as a client sends them: a symbol in any case,
 * trimmed, absent or blank meaning "every coin"; a page and page size given once, whole, within
 * bounds, 1 and 50 by default; a parameter repeated (an array from the query parser) says so.
 */
import { expect } from 'chai';
import { indicatorsQuerySchema, SIGNALS_LIST_LIMIT, signalsQuerySchema } from './contracts';

const issues = (query: unknown) => {
  const parsed = signalsQuerySchema.safeParse(query);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('signals query contracts', function () {
  it('defaults: every coin, page 1 of 50', function () {
    expect(SIGNALS_LIST_LIMIT).to.equal(50);
    expect(signalsQuerySchema.parse({})).to.deep.equal({ symbol: undefined, page: 1, pageSize: 50, format: undefined });
  });

  it('a symbol is trimmed; blank is every coin', function () {
    expect(signalsQuerySchema.parse({ symbol: '  btc ' }).symbol).to.equal('btc');
    expect(signalsQuerySchema.parse({ symbol: '   ' }).symbol).to.equal(undefined);
    expect(signalsQuerySchema.parse({ symbol: '' }).symbol).to.equal(undefined);
    expect(indicatorsQuerySchema.parse({ symbol: ' ETH' })).to.deep.equal({ symbol: 'ETH' });
    expect(indicatorsQuerySchema.parse({}).symbol).to.equal(undefined);
  });

  it('page and pageSize: as given, whole, from 1, pageSize at most 200; given twice says so', function () {
    expect(signalsQuerySchema.parse({ page: '3', pageSize: '200', format: 'csv' })).to.deep.equal({ symbol: undefined, page: 3, pageSize: 200, format: 'csv' });
    expect(issues({ pageSize: '201' })).to.deep.equal(['pageSize: must be a whole number from 1 to 200']);
    expect(issues({ page: '0' })).to.deep.equal(['page: must be a whole number from 1 to 1000000']);
    expect(issues({ page: ['1', '2'] })).to.deep.equal(['page: must be given once']);
    expect(issues({ symbol: ['BTC', 'ETH'] })).to.deep.equal(['symbol: must be given once']);
    expect(issues({ symbol: 'X'.repeat(33) })).to.deep.equal(['symbol: must be a coin symbol such as ETH, at most 32 characters']);
  });
});
