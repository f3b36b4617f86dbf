/** The Backtesting screen's exact texts (spec sections 8 and 9) and its metrics as the Results tab shows them. */
import { expect } from 'chai';
import type { BacktestFigures } from '@papertrade/domain/backtest/contracts';
import { ApiError } from '../../lib/api-client';
import { completedToast, failedToast, metricRows, ordinal, profitFactorText, runStatusText, strategyRequiredToast } from './backtest-texts';

const figures: BacktestFigures = {
  totalReturn: 0.1234,
  winRate: 7 / 12,
  maxDrawdown: 0.0821,
  totalTrades: 12,
  finalBalance: 11_234,
  sharpeRatio: 1.4567,
  performanceMetrics: { winningTrades: 7, losingTrades: 5, averageWin: 310.5, averageLoss: -187.25, profitFactor: 2.3214, volatility: 0.4512 },
};

describe('backtest texts', function () {
  it("'Backtest Completed' reports the trade count and the win rate", function () {
    expect(completedToast(figures)).to.deep.equal({ title: 'Backtest Completed', description: '12 trades, 58.33% win rate', variant: 'success' });
    expect(completedToast({ totalTrades: 1, winRate: 1 }).description).to.equal('1 trade, 100.00% win rate');
  });

  it("'Backtest Failed' carries the server's message: a refusal's problem detail, or the job's recorded reason", function () {
    const refusal = new ApiError(400, '{"detail":"parameters.oversold must be less than parameters.overbought"}', 'Bad Request', {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'parameters.oversold must be less than parameters.overbought',
    });
    expect(failedToast(refusal)).to.deep.equal({ title: 'Backtest Failed', description: 'parameters.oversold must be less than parameters.overbought', variant: 'destructive' });
    expect(failedToast('the worker stopped').description).to.equal('the worker stopped');
    expect(failedToast(new ApiError(500, '', 'Internal Server Error', null)).description).to.equal('500: Internal Server Error');
    expect(failedToast(null).description).to.equal('The backtest could not be run');
  });

  it("'Strategy Required: Please select a trading strategy'", function () {
    const toast = strategyRequiredToast();
    expect(`${toast.title}: ${toast.description}`).to.equal('Strategy Required: Please select a trading strategy');
  });

  it('shows fractions as percentages, money in dollars, and the ratios', function () {
    const rows = Object.fromEntries(metricRows(figures, 10_000).map((r) => [r.label, r.value]));
    expect(rows).to.deep.equal({
      'Total Return': '+12.34%',
      'Final Balance': '$11,234.00',
      'Profit / Loss': '+$1,234.00',
      'Total Trades': '12',
      'Win Rate': '58.33%',
      'Max Drawdown': '8.21%',
      'Sharpe Ratio': '1.457',
      'Winning Trades': '7',
      'Losing Trades': '5',
      'Average Win': '+$310.50',
      'Average Loss': '-$187.25',
      'Profit Factor': '2.321',
      'Volatility (annualised)': '45.12%',
    });
    expect(metricRows(figures, 10_000).find((r) => r.key === 'totalReturn')!.tone).to.equal('up');
  });

  it('writes a dash where a figure does not exist (no trades, no Sharpe), and an infinite profit factor in words', function () {
    const none: BacktestFigures = { ...figures, totalTrades: 0, winRate: 0, sharpeRatio: null, performanceMetrics: { ...figures.performanceMetrics, winningTrades: 0, losingTrades: 0, profitFactor: null } };
    const rows = Object.fromEntries(metricRows(none, null).map((r) => [r.key, r.value]));
    expect(rows.winRate).to.equal('—');
    expect(rows.sharpeRatio).to.equal('—');
    expect(rows.averageWin).to.equal('—');
    expect(rows.profitFactor).to.equal('—');
    expect(rows).not.to.have.property('pnl');
    expect(profitFactorText(null, 3, 0)).to.equal('∞ (no losing trade)');
  });

  it('says where a run stands: its place in the queue, then its progress', function () {
    expect(runStatusText('QUEUED', 2, null)).to.equal('Queued (2nd in line)');
    expect(runStatusText('QUEUED', null, null)).to.equal('Queued');
    expect(runStatusText('RUNNING', null, 0.426)).to.equal('Running 43%');
    expect(runStatusText('QUEUED', 1, 0.1)).to.equal('Running 10%');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 103].map(ordinal)).to.deep.equal(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']);
  });
});
