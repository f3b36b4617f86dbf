/**
 * The edges of the backtest request's rules: each bound is inclusive where the screen says "from ... to",
 * each refusal names its field and says exactly what is wrong, the period rules hold to the minute, and
 * a walk-forward's out-of-sample parts may be exactly a day.
 */
import { expect } from 'chai';
import { validationRefusal } from '../shared/validation-refusal.fixtures';
import { backtestConfigKey, STRATEGY_REQUIRED_MESSAGE, validateBacktestRequest, validatePeriod, validateStrategyParameters, validateWalkForwardRequest } from './contracts';

const NOW = Date.UTC(2026, 10, 26, 9, 30);
const DAY = 86_400_000;
const ok = { strategyId: 'rsi-mean-reversion', symbol: 'ETH', startDate: '2026-05-26', endDate: '2026-11-26', initialCapital: 10000, parameters: {} };
const wf = { strategyId: 'macd-momentum', symbol: 'BTC', startDate: '2025-11-01', endDate: '2026-11-01', windows: 12, objective: 'sharpeRatio', parameterSets: 100 };

/** The refusal of `run` as [field, message]; fails the test when it is accepted or throws anything else. */
function refusal(run: () => unknown): [string, string] {
  const error = validationRefusal(run);
  return [String(error.extra.field), error.message];
}

describe('backtest contract: the edges of each rule', function () {
  it('accepts a full ISO date-time with a UTC offset', function () {
    const r = validateBacktestRequest({ ...ok, startDate: '2026-06-01T10:00:00+02:00' }, NOW);
    expect(r.startMs).to.equal(Date.UTC(2026, 5, 1, 8));
  });

  it('refuses parameters that are not an object (null, a function) as parameters, and names an unsafe key', function () {
    expect(refusal(() => validateBacktestRequest({ ...ok, parameters: null }, NOW))).to.deep.equal(['parameters', 'parameters: parameters must be an object of names to numbers']);
    expect(refusal(() => validateBacktestRequest({ ...ok, parameters: function named() {} }, NOW))).to.deep.equal(['parameters', 'parameters: parameters must be an object of names to numbers']);
    expect(refusal(() => validateBacktestRequest({ ...ok, parameters: JSON.parse('{"__proto__": 3}') }, NOW))).to.deep.equal(['parameters.__proto__', 'parameters.__proto__: unknown parameter "__proto__"']);
  });

  it('takes up to 20 parameters to the catalogue (where unknown names are refused by name), refuses 21 outright', function () {
    const named = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, i]));
    expect(refusal(() => validateBacktestRequest({ ...ok, parameters: named(20) }, NOW))).to.deep.equal(['parameters.p0', 'unknown parameter "p0" for rsi-mean-reversion: rsiPeriod, oversold, overbought']);
    expect(refusal(() => validateBacktestRequest({ ...ok, parameters: named(21) }, NOW))).to.deep.equal(['parameters', 'parameters: at most 20 parameters']);
  });

  it("answers 'Strategy Required' for a blank strategy, and names an unknown one (cut to 100 characters) with the known ones", function () {
    expect(refusal(() => validateStrategyParameters('   ', {}))).to.deep.equal(['strategyId', STRATEGY_REQUIRED_MESSAGE]);
    expect(refusal(() => validateStrategyParameters('', {}))).to.deep.equal(['strategyId', STRATEGY_REQUIRED_MESSAGE]);
    const long = 'x'.repeat(150);
    expect(refusal(() => validateStrategyParameters(long, {}))).to.deep.equal(['strategyId', `unknown strategy "${'x'.repeat(100)}": one of rsi-mean-reversion, ma-crossover, macd-momentum, house-signals`]);
  });

  it('names an unknown parameter cut to 64 characters, with the strategy and its parameters', function () {
    const name = 'y'.repeat(80);
    expect(refusal(() => validateStrategyParameters('ma-crossover', { [name]: 1 }))).to.deep.equal([`parameters.${'y'.repeat(64)}`, `unknown parameter "${'y'.repeat(64)}" for ma-crossover: fastPeriod, slowPeriod`]);
  });

  it('refuses a parameter that is not a finite number', function () {
    expect(refusal(() => validateStrategyParameters('ma-crossover', { fastPeriod: Number.NaN }))).to.deep.equal(['parameters.fastPeriod', 'parameters.fastPeriod must be a finite number']);
    expect(refusal(() => validateStrategyParameters('house-signals', { scoreThreshold: Number.POSITIVE_INFINITY }))).to.deep.equal(['parameters.scoreThreshold', 'parameters.scoreThreshold must be a finite number']);
  });

  it('takes each bound itself, and fractions where the step is not 1', function () {
    expect(validateStrategyParameters('rsi-mean-reversion', { rsiPeriod: 2, oversold: 5, overbought: 95 }).parameters).to.deep.equal({ rsiPeriod: 2, oversold: 5, overbought: 95 });
    expect(validateStrategyParameters('rsi-mean-reversion', { rsiPeriod: 50, oversold: 45, overbought: 55 }).parameters).to.deep.equal({ rsiPeriod: 50, oversold: 45, overbought: 55 });
    expect(validateStrategyParameters('house-signals', { scoreThreshold: 0.3 }).parameters).to.deep.equal({ rsiOversold: 30, rsiOverbought: 70, scoreThreshold: 0.3 });
  });

  it('refuses a fast period equal to the slow one: it must be less', function () {
    expect(refusal(() => validateStrategyParameters('ma-crossover', { fastPeriod: 30, slowPeriod: 30 }))).to.deep.equal(['parameters.slowPeriod', 'parameters.fastPeriod must be less than parameters.slowPeriod']);
  });

  it('refuses a period whose dates are not dates, or that starts before the history, each by its field', function () {
    expect(refusal(() => validatePeriod('yesterday', '2026-06-01', NOW))).to.deep.equal(['startDate', 'startDate must be a date, YYYY-MM-DD or ISO-8601']);
    expect(refusal(() => validatePeriod('2026-05-01', 'tomorrow', NOW))).to.deep.equal(['endDate', 'endDate must be a date, YYYY-MM-DD or ISO-8601']);
    expect(refusal(() => validatePeriod('2019-12-31', '2020-03-01', NOW))).to.deep.equal(['startDate', "startDate must not be before the history's start, 2020-01-01"]);
  });

  it('refuses a start at the present minute: it must be in the past', function () {
    const now = new Date(NOW).toISOString();
    expect(refusal(() => validatePeriod(now, now, NOW))).to.deep.equal(['startDate', 'startDate must be in the past']);
  });

  it('takes an end at the present minute, and a date-only end of tomorrow at midnight UTC', function () {
    expect(validatePeriod('2026-11-20', new Date(NOW).toISOString(), NOW)).to.deep.equal({ startMs: Date.UTC(2026, 10, 20), endMs: NOW });
    const midnight = Date.UTC(2026, 10, 26);
    expect(validatePeriod('2026-11-20', '2026-11-27', midnight)).to.deep.equal({ startMs: Date.UTC(2026, 10, 20), endMs: midnight });
  });

  it('refuses an end equal to the start as not after it, a period a minute short of a day as too short, and takes exactly a day', function () {
    expect(refusal(() => validatePeriod('2026-06-01T00:00:00Z', '2026-06-01T00:00:00Z', NOW))).to.deep.equal(['endDate', 'endDate must be after startDate']);
    expect(refusal(() => validatePeriod('2026-06-01T00:00:00Z', '2026-06-01T23:59:00Z', NOW))).to.deep.equal(['endDate', 'the period must be at least 1 day']);
    expect(validatePeriod('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z', NOW)).to.deep.equal({ startMs: Date.UTC(2026, 5, 1), endMs: Date.UTC(2026, 5, 2) });
  });

  it("a backtest's settings key: strategy, coin, period, capital and the parameters sorted by name", function () {
    const key = backtestConfigKey({ strategyId: 'ma-crossover', symbol: 'ETH', startMs: 1, endMs: 2, initialCapital: 1000, parameters: { slowPeriod: 30, fastPeriod: 10 } });
    expect(key).to.equal('ma-crossover|ETH|1|2|1000|fastPeriod=10,slowPeriod=30');
  });

  it('a walk-forward refusal names its field and says what is wrong; a blank strategy is Strategy Required; an unknown field is the body', function () {
    expect(refusal(() => validateWalkForwardRequest({ ...wf, objective: 'luck' }, NOW))).to.deep.equal(['objective', 'objective: objective must be one of sharpeRatio, totalReturn, profitFactor']);
    expect(refusal(() => validateWalkForwardRequest({ ...wf, strategyId: '' }, NOW))).to.deep.equal(['strategyId', STRATEGY_REQUIRED_MESSAGE]);
    expect(refusal(() => validateWalkForwardRequest({ ...wf, extra: 1 }, NOW))).to.deep.equal(['body', 'body: Unrecognized key: "extra"']);
  });

  it('a walk-forward takes out-of-sample parts of exactly a day and refuses shorter ones', function () {
    // in-sample 0.75: each window is 3 out-of-sample lengths in-sample plus one out; 2 windows: period = 5 parts.
    const five = validateWalkForwardRequest({ ...wf, startDate: '2026-06-01', endDate: '2026-06-05', windows: 2, inSampleFraction: 0.75 }, NOW);
    expect([five.startMs, five.endMs]).to.deep.equal([Date.UTC(2026, 5, 1), Date.UTC(2026, 5, 1) + 5 * DAY]);
    expect(refusal(() => validateWalkForwardRequest({ ...wf, startDate: '2026-06-01', endDate: '2026-06-04', windows: 2, inSampleFraction: 0.75 }, NOW))).to.deep.equal([
      'windows',
      'too many windows for the period: each out-of-sample part must be at least a day',
    ]);
  });
});
