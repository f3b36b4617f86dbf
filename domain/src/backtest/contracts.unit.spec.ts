/**
 * POST /api/backtest/run's validation (validateBacktestRequest): each bad field is a ValidationError
 * naming it; a missing strategy is 'Strategy Required'; defaults fill what is left out.
 */
import { expect } from 'chai';
import { SIMULATION_EPOCH_MS } from '../market/market-path';
import { ValidationError } from '../shared/errors';
import { backtestStrategies, MAX_BACKTEST_DAYS, STRATEGY_REQUIRED_MESSAGE, strategiesResponseSchema, validateBacktestRequest, validateWalkForwardRequest } from './contracts';

const NOW = Date.UTC(2026, 10, 26, 9, 30);
const ok = { strategyId: 'rsi-mean-reversion', symbol: 'ETH', startDate: '2026-05-26', endDate: '2026-11-26', initialCapital: 10000, parameters: {} };

function fails(body: unknown, field: string, message?: RegExp | string): void {
  let error: unknown;
  try {
    validateBacktestRequest(body, NOW);
  } catch (e) {
    error = e;
  }
  expect(error, JSON.stringify(body)).to.be.instanceOf(ValidationError);
  expect((error as ValidationError).extra.field, (error as Error).message).to.equal(field);
  if (typeof message === 'string') expect((error as Error).message).to.equal(message);
  else if (message) expect((error as Error).message).to.match(message);
}

describe('backtest contract: the request and its validation', function () {
  it('lists four strategies with bounds that hold their defaults', function () {
    strategiesResponseSchema.parse(backtestStrategies);
    expect(backtestStrategies.map((s) => s.id)).to.deep.equal(['rsi-mean-reversion', 'ma-crossover', 'macd-momentum', 'house-signals']);
    for (const s of backtestStrategies) for (const p of Object.values(s.parameters)) expect(p.default).to.be.within(p.min, p.max);
  });

  it('accepts the screen defaults (ETH, 10000, the last 6 months to today) and fills every parameter default', function () {
    const r = validateBacktestRequest(ok, NOW);
    expect(r.parameters).to.deep.equal({ rsiPeriod: 14, oversold: 30, overbought: 70 });
    expect(r.startMs).to.equal(Date.UTC(2026, 4, 26));
    expect(r.endMs, 'today runs up to now').to.equal(NOW);
    expect(r.symbol).to.equal('ETH');
    const d = validateBacktestRequest({ strategyId: 'ma-crossover', startDate: '2026-01-01', endDate: '2026-02-01' }, NOW);
    expect(d).to.include({ symbol: 'ETH', initialCapital: 10000, endMs: Date.UTC(2026, 1, 2) });
    expect(validateBacktestRequest({ ...ok, symbol: 'bnb' }, NOW).symbol).to.equal('BNB');
  });

  it("answers 'Strategy Required' for a missing, empty or non-string strategy", function () {
    for (const strategyId of [undefined, '', '   ', null, 7]) fails({ ...ok, strategyId }, 'strategyId', STRATEGY_REQUIRED_MESSAGE);
    fails({ ...ok, strategyId: 'nope' }, 'strategyId', /unknown strategy "nope"/);
  });

  it('refuses parameters out of bounds, unknown, fractional where whole, out of order, or not numbers', function () {
    fails({ ...ok, parameters: { rsiPeriod: 1 } }, 'parameters.rsiPeriod', 'parameters.rsiPeriod must be from 2 to 50');
    fails({ ...ok, parameters: { rsiPeriod: 51 } }, 'parameters.rsiPeriod');
    fails({ ...ok, parameters: { rsiPeriod: 14.5 } }, 'parameters.rsiPeriod', /whole number/);
    fails({ ...ok, parameters: { bogus: 1 } }, 'parameters.bogus', /unknown parameter "bogus"/);
    fails({ ...ok, parameters: JSON.parse('{"__proto__": 3}') }, 'parameters.__proto__', /unknown parameter/);
    fails({ ...ok, parameters: { rsiPeriod: '14' } }, 'parameters.rsiPeriod');
    fails({ ...ok, parameters: [1] }, 'parameters');
    fails({ ...ok, strategyId: 'ma-crossover', parameters: { fastPeriod: 40, slowPeriod: 30 } }, 'parameters.slowPeriod', /fastPeriod must be less than/);
  });

  it('refuses dates before the history, in the future, reversed, malformed, or a period too long', function () {
    fails({ ...ok, startDate: '2019-12-31' }, 'startDate', /before the history's start, 2020-01-01/);
    fails({ ...ok, endDate: '2026-11-28' }, 'endDate', 'endDate must not be in the future');
    fails({ ...ok, endDate: new Date(NOW + 60_000).toISOString() }, 'endDate', 'endDate must not be in the future');
    fails({ ...ok, startDate: '2026-06-01', endDate: '2026-05-01' }, 'endDate', /after startDate/);
    fails({ ...ok, startDate: '2026-13-01' }, 'startDate');
    fails({ ...ok, startDate: 'yesterday' }, 'startDate');
    fails({ ...ok, startDate: '2025-01-01', endDate: '2026-11-01' }, 'endDate', `the period must be at most ${MAX_BACKTEST_DAYS} days`);
    fails({ ...ok, startDate: 20260101 }, 'startDate');
    expect(validateBacktestRequest({ ...ok, startDate: new Date(SIMULATION_EPOCH_MS).toISOString(), endDate: '2020-03-01' }, NOW).startMs).to.equal(SIMULATION_EPOCH_MS);
    expect(validateBacktestRequest({ ...ok, endDate: '2026-11-27' }, NOW).endMs, 'a user east of UTC may name tomorrow').to.equal(NOW);
  });

  it('refuses capital out of range, an unknown coin, unknown fields, NUL characters and a body that is not an object', function () {
    fails({ ...ok, initialCapital: 99 }, 'initialCapital', /from 100 to 10000000/);
    fails({ ...ok, initialCapital: 1e9 }, 'initialCapital');
    fails({ ...ok, initialCapital: '10000' }, 'initialCapital');
    fails({ ...ok, symbol: 'DOGE' }, 'symbol', /unknown coin symbol/);
    fails({ ...ok, symbol: 'ETH\u0000' }, 'symbol');
    fails({ ...ok, extra: 1 }, 'body');
    fails(null, 'body');
    fails(JSON.parse('{"strategyId":"rsi-mean-reversion","startDate":"2026-05-26","endDate":"2026-11-26","__proto__":{"x":1}}'), 'body');
    fails('x', 'body');
  });

  it('validates a walk-forward: windows 2..24, up to 100 sets, a known objective, each out-of-sample part at least a day', function () {
    const wf = { strategyId: 'macd-momentum', symbol: 'BTC', startDate: '2025-11-01', endDate: '2026-11-01', windows: 12, objective: 'sharpeRatio', parameterSets: 100 };
    const r = validateWalkForwardRequest(wf, NOW);
    expect(r).to.include({ windows: 12, parameterSets: 100, inSampleFraction: 0.75, objective: 'sharpeRatio', initialCapital: 10000 });
    const bad = (body: unknown, field: string) => {
      try {
        validateWalkForwardRequest(body, NOW);
        expect.fail('accepted');
      } catch (e) {
        expect(e).to.be.instanceOf(ValidationError);
        expect((e as ValidationError).extra.field).to.equal(field);
      }
    };
    bad({ ...wf, windows: 1 }, 'windows');
    bad({ ...wf, windows: 25 }, 'windows');
    bad({ ...wf, parameterSets: 101 }, 'parameterSets');
    bad({ ...wf, objective: 'luck' }, 'objective');
    bad({ ...wf, strategyId: '' }, 'strategyId');
    bad({ ...wf, startDate: '2026-10-20', windows: 24 }, 'windows');
  });
});
