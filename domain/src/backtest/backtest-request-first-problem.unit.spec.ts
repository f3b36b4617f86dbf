/**
 * A backtest request with several problems answers the strategy's first: without a strategy nothing
 * else about the run can be checked, and the form shows "Strategy Required" above the rest.
 */
import { expect } from 'chai';
import { validationRefusal } from '../shared/validation-refusal.fixtures';
import { STRATEGY_REQUIRED_MESSAGE, validateBacktestRequest } from './contracts';

const NOW = Date.parse('2026-03-04T00:00:00.000Z');

const refusal = (request: unknown) => validationRefusal(() => validateBacktestRequest(request, NOW));

describe('backtest request: the strategy is the first problem answered', function () {
  it('a missing strategy with bad dates and an unknown field answers "Strategy Required" for strategyId', function () {
    for (const request of [{ startDate: 3, endDate: 4 }, { startDate: 3, endDate: '2026-01-02', bogus: true }, { strategyId: '', startDate: 3 }]) {
      const error = refusal(request);
      expect(error.message, JSON.stringify(request)).to.equal(STRATEGY_REQUIRED_MESSAGE);
      expect(error.extra, JSON.stringify(request)).to.deep.equal({ field: 'strategyId' });
    }
  });

  it('with a strategy, the first other problem in the form\'s order', function () {
    const error = refusal({ strategyId: 'rsi-mean-reversion', startDate: 3, endDate: 4 });
    expect(error.extra).to.deep.equal({ field: 'startDate' });
  });
});
