/**
 * The strategy backtest dialog's request (premium-and-account.md section 9): two real calendar days
 * YYYY-MM-DD, the end after the start, and a starting capital from $100 to $10,000,000; the dialog
 * opens on 2024 with $10,000.
 */
import { expect } from 'chai';
import { BACKTEST_DIALOG_DEFAULTS, strategyBacktestRequestSchema, toggleStrategyRequestSchema } from './contracts';

const issues = (body: unknown) => {
  const parsed = strategyBacktestRequestSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('strategy backtest request', function () {
  it("the dialog's defaults are a valid request: 2024 with $10,000", function () {
    expect(BACKTEST_DIALOG_DEFAULTS).to.deep.equal({ startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 });
    expect(strategyBacktestRequestSchema.parse(BACKTEST_DIALOG_DEFAULTS)).to.deep.equal(BACKTEST_DIALOG_DEFAULTS);
  });

  it('dates: the YYYY-MM-DD form, a day that exists (29 February only in a leap year), the end after the start', function () {
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, startDate: '2024/01/01' })).to.include('startDate: startDate must be a date YYYY-MM-DD');
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, startDate: 20240101 })).to.include('startDate: startDate must be a date YYYY-MM-DD');
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, endDate: '2023-02-29', startDate: '2023-01-01' })).to.deep.equal(['endDate: endDate must be a real date']);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, startDate: '2024-13-01', endDate: '2025-01-01' })).to.deep.equal(['startDate: startDate must be a real date']);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, startDate: '2024-02-29' })).to.deep.equal([]);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, startDate: '2024-12-31' })).to.deep.equal(['endDate: endDate must be after startDate']);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, startDate: '2024-12-30' })).to.deep.equal([]);
  });

  it('capital: a number from 100 to 10,000,000, both ends taken', function () {
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, initialCapital: 100 })).to.deep.equal([]);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, initialCapital: 10_000_000 })).to.deep.equal([]);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, initialCapital: 99.99 })).to.deep.equal(['initialCapital: initialCapital must be from 100 to 10000000']);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, initialCapital: 10_000_001 })).to.deep.equal(['initialCapital: initialCapital must be from 100 to 10000000']);
    expect(issues({ ...BACKTEST_DIALOG_DEFAULTS, initialCapital: '10000' })).to.deep.equal(['initialCapital: initialCapital must be a number from 100 to 10000000']);
  });

  it('switching a strategy on or off takes true or false only', function () {
    expect(toggleStrategyRequestSchema.parse({ active: false })).to.deep.equal({ active: false });
    expect(toggleStrategyRequestSchema.safeParse({ active: 'yes' }).error?.issues[0]?.message).to.equal('active must be true or false');
  });
});
