/**
 * The Run Backtest form's rules (spec sections 2, 5 and 9): the defaults (ETH, 10000, the last 6
 * months to today), a strategy's parameters at its defaults and within its min and max, Run disabled
 * while running or without a strategy, 'Strategy Required: Please select a trading strategy', and the
 * request sent.
 */
import { expect } from 'chai';
import { backtestStrategies, findStrategy, validateBacktestRequest } from '@papertrade/domain/backtest/contracts';
import { defaultPeriod, formErrors, initialFormState, localDay, monthsBefore, parseBoundedNumber, runDisabled, selectStrategy, toRequest } from './backtest-form';

// Local-time constructors: the form's "today" is the viewer's calendar day, whatever the zone.
const NOW = new Date(2026, 10, 26, 9, 30);
const rsi = findStrategy('rsi-mean-reversion')!;

describe('backtest form', function () {
  it('defaults to ETH, a capital of 10000 and the last 6 months to today, with no strategy', function () {
    expect(initialFormState(NOW)).to.deep.equal({ strategyId: '', symbol: 'ETH', startDate: '2026-05-26', endDate: '2026-11-26', initialCapital: '10000', parameters: {} });
  });

  it('counts 6 calendar months back, to the month end where the day does not exist', function () {
    expect(monthsBefore('2026-08-31', 6)).to.equal('2026-02-28');
    expect(monthsBefore('2028-08-31', 6)).to.equal('2028-02-29');
    expect(monthsBefore('2026-03-15', 6)).to.equal('2025-09-15');
    expect(monthsBefore('2026-01-01', 6)).to.equal('2025-07-01');
    expect(defaultPeriod(new Date(2026, 0, 1, 0, 5))).to.deep.equal({ startDate: '2025-07-01', endDate: '2026-01-01' });
    expect(localDay(new Date(2026, 1, 3, 23, 59))).to.equal('2026-02-03');
  });

  it("choosing a strategy sets each of its parameters to the strategy's default; none clears them", function () {
    const chosen = selectStrategy(initialFormState(NOW), rsi);
    expect(chosen.strategyId).to.equal('rsi-mean-reversion');
    expect(chosen.parameters).to.deep.equal({ rsiPeriod: '14', oversold: '30', overbought: '70' });
    expect(selectStrategy(chosen, undefined)).to.include({ strategyId: '' });
    expect(selectStrategy(chosen, undefined).parameters).to.deep.equal({});
  });

  it('Run is disabled without premium, while running, or with no strategy', function () {
    expect(runDisabled({ premium: true, running: false, strategyId: 'ma-crossover' })).to.equal(false);
    expect(runDisabled({ premium: true, running: true, strategyId: 'ma-crossover' })).to.equal(true);
    expect(runDisabled({ premium: true, running: false, strategyId: '' })).to.equal(true);
    expect(runDisabled({ premium: false, running: false, strategyId: 'ma-crossover' })).to.equal(true);
  });

  it('parses a typed number within its bounds, naming the bounds otherwise', function () {
    expect(parseBoundedNumber('14', 2, 50)).to.deep.equal({ ok: true, value: 14 });
    expect(parseBoundedNumber(' 2 ', 2, 50)).to.deep.equal({ ok: true, value: 2 });
    expect(parseBoundedNumber('51', 2, 50)).to.deep.equal({ ok: false, error: 'Must be between 2 and 50' });
    expect(parseBoundedNumber('1.99', 2, 50)).to.deep.equal({ ok: false, error: 'Must be between 2 and 50' });
    expect(parseBoundedNumber('', 2, 50)).to.deep.equal({ ok: false, error: 'Enter a number' });
    expect(parseBoundedNumber('abc', 2, 50)).to.deep.equal({ ok: false, error: 'Enter a number' });
    expect(parseBoundedNumber('Infinity', 2, 50)).to.deep.equal({ ok: false, error: 'Enter a number' });
  });

  it("without a strategy the request is refused with the spec's text", function () {
    expect(toRequest(initialFormState(NOW), undefined, NOW)).to.deep.equal({ ok: false, error: 'Strategy Required: Please select a trading strategy' });
  });

  it("sends the strategy's parameters as numbers with the period, the coin and the capital", function () {
    const state = { ...selectStrategy(initialFormState(NOW), rsi), symbol: 'BTC', initialCapital: '2500' };
    state.parameters = { ...state.parameters, rsiPeriod: '21' };
    expect(toRequest(state, rsi, NOW)).to.deep.equal({
      ok: true,
      value: { strategyId: 'rsi-mean-reversion', symbol: 'BTC', startDate: '2026-05-26', endDate: '2026-11-26', initialCapital: 2500, parameters: { rsiPeriod: 21, oversold: 30, overbought: 70 } },
    });
  });

  it('names each field out of its bounds, a future end, an end before the start and a capital out of range', function () {
    const state = selectStrategy(initialFormState(NOW), rsi);
    expect(formErrors(state, rsi, NOW)).to.deep.equal({});
    expect(formErrors({ ...state, parameters: { ...state.parameters, oversold: '46' } }, rsi, NOW)).to.deep.equal({ 'parameters.oversold': 'Must be between 5 and 45' });
    expect(formErrors({ ...state, endDate: '2026-11-27' }, rsi, NOW)).to.deep.equal({ endDate: 'The end date cannot be in the future' });
    expect(formErrors({ ...state, startDate: '2026-11-26' }, rsi, NOW)).to.deep.equal({ endDate: 'The end date must be after the start date' });
    expect(formErrors({ ...state, initialCapital: '99' }, rsi, NOW)).to.deep.equal({ initialCapital: 'Must be between 100 and 10000000' });
    expect(formErrors({ ...state, startDate: '' }, rsi, NOW)).to.deep.equal({ startDate: 'Enter a start date' });
    expect(toRequest({ ...state, initialCapital: '0' }, rsi, NOW)).to.deep.equal({ ok: false, error: 'Must be between 100 and 10000000' });
  });

  it("every catalogue strategy's defaults make a request the contract accepts as is", function () {
    for (const strategy of backtestStrategies) {
      const request = toRequest(selectStrategy(initialFormState(NOW), strategy), strategy, NOW);
      if (!request.ok) throw new Error(`${strategy.id}: ${request.error}`);
      expect(validateBacktestRequest(request.value, NOW.getTime()).parameters).to.deep.equal(request.value.parameters);
    }
  });
});
