/** How the Backtesting screen names periods, statuses, fills and differences. */
import { expect } from 'chai';
import { backtestStrategies } from '@papertrade/domain/backtest/contracts';
import { botRuleLabel } from '../../lib/bot-rules';
import { executionText, formatDelay, parameterLabel, parametersText, periodText, statusLabel, strategyName } from './backtest-labels';

describe('backtest labels', function () {
  it("names a strategy by the catalogue's name, its id when unknown", function () {
    expect(strategyName(backtestStrategies, 'ma-crossover')).to.equal('Moving Average Crossover');
    expect(strategyName(undefined, 'ma-crossover')).to.equal('ma-crossover');
    // An AI strategy's backtest (run from /ai-signals) by its name there.
    expect(strategyName(backtestStrategies, 'rsi-technical')).to.equal('RSI Mean Reversion (AI strategy)');
    expect(strategyName(backtestStrategies, 'cross-exchange-arbitrage')).to.equal('Cross-Exchange Arbitrage (AI strategy)');
  });


  it('shows a period by its UTC days, the exclusive midnight end as the last day included', function () {
    expect(periodText('2026-05-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z')).to.equal('May 26, 2026 – Nov 26, 2026');
    // An end capped at now (today's run) keeps its minute.
    expect(periodText('2026-05-26T00:00:00.000Z', '2026-11-26T09:30:00.000Z')).to.equal('May 26, 2026 – Nov 26, 2026, 09:30 UTC');
    expect(periodText('nonsense', '2026-11-26')).to.equal('nonsense – 2026-11-26');
  });

  it('says what a fill met: mid, half spread and impact in basis points, a level, a delay', function () {
    const base = { mid: 3000, halfSpread: 0.00005, impact: 0.000002, filledAt: '2026-01-01T00:00:05Z', intendedAt: null, delayMs: null, level: null };
    expect(executionText(base)).to.equal('mid $3,000.00 · spread 0.5 bp · impact 0.02 bp');
    expect(executionText({ ...base, level: 2940 })).to.equal('mid $3,000.00 · spread 0.5 bp · impact 0.02 bp · level $2,940.00');
    expect(executionText({ ...base, halfSpread: 0.0002, impact: 0, delayMs: 85_000 })).to.equal('mid $3,000.00 · spread 2.0 bp · impact 0 bp · +1 min 25 s after the signal');
    expect([2_000, 60_000, 85_400].map(formatDelay)).to.deep.equal(['2 s', '1 min', '1 min 25 s']);
  });

  it("labels a parameter by its name's words, acronyms in capitals", function () {
    expect(['rsiPeriod', 'scoreThreshold', 'fastPeriod', 'rsiOverbought', 'oversold'].map(parameterLabel)).to.deep.equal(['RSI Period', 'Score Threshold', 'Fast Period', 'RSI Overbought', 'Oversold']);
  });

  it("names the bot's sizing rule as Trade History does, an unknown one as sent", function () {
    expect(['FIXED_SIZE', 'SELL_SIGNAL', 'KELLY_SIZE', 'SOMETHING_NEW', 'constructor'].map(botRuleLabel)).to.deep.equal(['Fixed size', 'Sell signal', 'Kelly size', 'SOMETHING_NEW', 'constructor']);
  });

  it('names statuses and writes a parameter set in the catalogue order', function () {
    expect(statusLabel('QUEUED')).to.equal('Queued');
    expect(statusLabel('FAILED')).to.equal('Failed');
    expect(parametersText({ overbought: 70, rsiPeriod: 14, oversold: 30 }, ['rsiPeriod', 'oversold', 'overbought'])).to.equal('rsiPeriod 14 · oversold 30 · overbought 70');
    expect(parametersText({ b: 1, a: 2 })).to.equal('b 1 · a 2');
  });
});
