import { expect } from 'chai';
import { formatRatio, stopFigure, stopLossTypeHints, stopLossValueLabel } from './risk-profile-labels';

describe('risk profile labels (issue 17)', () => {
  it('writes a stop or target in the unit of the stop-loss type', () => {
    expect(stopFigure(2, 'percent')).to.equal('2%');
    expect(stopFigure(2.5, 'atr')).to.equal('2.5 × ATR14');
    expect(stopFigure(3, 'sigma')).to.equal('3 σ');
    expect(stopFigure(10 / 3, 'percent')).to.equal('3.3333%');
  });

  it('labels stopLossValue a percent for fixed and trailing stops and k for atr and volatility ones, each type with its rule', () => {
    expect(['fixed', 'trailing', 'atr', 'volatility'].map((t) => stopLossValueLabel(t as 'fixed'))).to.deep.equal([
      'Stop Loss Value (%)',
      'Stop Loss Value (%)',
      'Stop Loss Value (k)',
      'Stop Loss Value (k)',
    ]);
    expect(stopLossTypeHints.trailing).to.contain('highest price since the entry');
    expect(stopLossTypeHints.atr).to.contain('ATR14 of 5-minute candles');
  });

  it('shows a ratio rounded to 4 decimals', () => {
    expect(formatRatio(5 / 3)).to.equal('1.6667');
    expect(formatRatio(2.5)).to.equal('2.5');
  });
});
