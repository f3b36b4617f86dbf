/** The strategies page's exact texts (spec section 8) and figure formatting. */
import { expect } from 'chai';
import { ApiError } from '../../lib/api-client';
import { backtestResultFigures, configurationFailedToast, configurationSavedToast, figureText, figuresSourceText, headerCounts, retrainEndedToast, retrainStartedToast, retrainFailedToast, strategyUpdatedToast, toggleFailedToast } from './strategy-texts';

describe('strategy texts', function () {
  it('the spec\'s toasts', function () {
    expect(strategyUpdatedToast('RSI Mean Reversion', true)).to.include({ title: 'Strategy Updated', description: 'RSI Mean Reversion is now active' });
    expect(toggleFailedToast()).to.deep.equal({ title: 'Error', description: 'Failed to update strategy status', variant: 'destructive' });
    expect(configurationSavedToast('X').title).to.equal('Configuration Saved');
    expect(retrainStartedToast(0.001, 100).description).to.equal('A neural network is training with learning rate 0.001 and 100 epochs; the strategy uses it once it is trained');
    const status = { lastJobId: 'j1', lastFailure: null, accuracy: 51.23, baseline: 50.4 };
    expect(retrainEndedToast(status, 'j0')).to.equal(null);
    expect(retrainEndedToast(status, 'j1')).to.deep.equal({ title: 'Model Retrained', description: 'New accuracy: 51.2% (baseline 50.4%)', variant: 'success' });
    expect(retrainEndedToast({ ...status, lastFailure: { jobId: 'j1', reason: 'x', at: 'now' } }, 'j1')).to.include({ title: 'Training Failed', description: 'Failed to retrain the neural network model' });
    expect(retrainFailedToast(new Error('offline'))).to.include({ title: 'Training Failed', description: 'Failed to retrain the neural network model' });
  });

  it('figures: "—" when not measured, percent with one decimal, ratios with two', function () {
    expect(figureText(null, 'percent')).to.equal('—');
    expect(figureText(55.555, 'percent')).to.equal('55.6%');
    expect(figureText(1.234, 'ratio')).to.equal('1.23');
  });

  it('says where the figures come from and the sample size', function () {
    expect(figuresSourceText({ figuresSource: 'paper', sampleSize: 12 })).to.equal('Paper trading since activation · 12 round trips');
    expect(figuresSourceText({ figuresSource: 'backtest', sampleSize: 1 })).to.equal('Latest backtest · 1 round trip');
    expect(figuresSourceText({ figuresSource: 'none', sampleSize: 0 })).to.equal('No round trips yet');
  });

  it('header counts of active strategies and live signals', function () {
    expect(headerCounts([{ active: true }, { active: false }, { active: true }], [1, 2, 3, 4])).to.deep.equal({ active: 2, signals: 4 });
    expect(headerCounts(undefined, undefined)).to.deep.equal({ active: 0, signals: 0 });
  });

  it('a failure names what the server said (a problem\'s detail naming the field)', function () {
    const problem = { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'rsiPeriod must be from 2 to 100' };
    const error = new ApiError(400, JSON.stringify(problem), 'Bad Request', problem as never);
    expect(configurationFailedToast(error)).to.deep.equal({ title: 'Error', description: 'rsiPeriod must be from 2 to 100', variant: 'destructive' });
    expect(configurationFailedToast(new Error('network')).description).to.equal('Failed to save configuration');
  });

  it('a backtest\'s result figures: percents with one decimal, the balance in dollars, "—" without trades', function () {
    const result = { totalReturn: 0.0123, totalTrades: 4, winRate: 0.75, maxDrawdown: 0.031, finalBalance: 10123.4, sharpeRatio: 1.234, signals: 9, refusedSignals: 1 };
    expect(backtestResultFigures(result)).to.deep.equal([
      ['Total return', '+1.2%', 'return'],
      ['Closed trades', '4', 'trades'],
      ['Win rate', '75.0%', 'win-rate'],
      ['Max drawdown', '3.1%', 'max-drawdown'],
      ['Sharpe ratio', '1.23', 'sharpe'],
      ['Final balance', '$10,123.40', 'final-balance'],
      ['Signals', '9', 'signals'],
      ['Not followed', '1', 'refused'],
    ]);
    const none = backtestResultFigures({ ...result, totalReturn: 0, totalTrades: 0, winRate: 0, sharpeRatio: null, refusedSignals: 0 });
    expect(none.map(([, v]) => v)).to.deep.equal(['0.0%', '0', '—', '3.1%', '—', '$10,123.40', '9', '0']);
  });
});
