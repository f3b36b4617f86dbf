import { expect } from 'chai';
import type { AlertSeverity } from '@papertrade/domain/trading/contracts';
import type { ActiveRiskTrade } from '@papertrade/domain/trading/read-contracts';
import { alertFigure, barWidth, dailyLossTone, mostSevereAlert, openPositionsSummary, portfolioRiskBadge, PORTFOLIO_RISK_BAR_MAX, resolutionLabel } from './risk-rules';

describe('risk display rules (dashboard section 9)', () => {
  it('colours the daily loss bar red above 80, amber above 50, else green (the bounds themselves one step down)', () => {
    expect([0, 50, 50.01, 80, 80.01, 150].map(dailyLossTone)).to.deep.equal(['green', 'green', 'amber', 'amber', 'red', 'red']);
  });

  it('badges portfolio risk destructive above 15, default above 10, else secondary', () => {
    expect([0, 10, 10.5, 15, 15.01, 40].map(portfolioRiskBadge)).to.deep.equal(['secondary', 'secondary', 'default', 'default', 'destructive', 'destructive']);
  });

  it('fills the portfolio risk bar at 20 percent and clamps every bar to 0..100', () => {
    expect(barWidth(10, PORTFOLIO_RISK_BAR_MAX)).to.equal(50);
    expect(barWidth(35, PORTFOLIO_RISK_BAR_MAX)).to.equal(100);
    expect(barWidth(-3, 100)).to.equal(0);
    expect(barWidth(Number.NaN, 100)).to.equal(0);
  });

  it('shows the most severe unacknowledged alert, the newest among equals, none when all are acknowledged', () => {
    const alert = (id: string, severity: AlertSeverity, acknowledged: boolean, minute: number) => ({ id, severity, acknowledged, timestamp: `2026-03-04T10:${String(minute).padStart(2, '0')}:00.000Z` });
    const alerts = [alert('a', 'medium', false, 5), alert('b', 'critical', true, 4), alert('c', 'high', false, 1), alert('d', 'high', false, 3), alert('e', 'low', false, 9)];
    expect(mostSevereAlert(alerts)?.id).to.equal('d');
    expect(mostSevereAlert(alerts.map((a) => ({ ...a, acknowledged: true })))).to.equal(null);
    expect(mostSevereAlert([alert('x', 'low', false, 1), alert('y', 'critical', false, 0)])?.id).to.equal('y');
  });

  it("writes an alert's value and threshold in its kind's unit (the raw 20.7 read as a bare number)", () => {
    expect(alertFigure('POSITION_SIZE', 20.7)).to.equal('20.70%');
    expect(alertFigure('DRAWDOWN', 15)).to.equal('15.00%');
    expect(alertFigure('VOLATILITY', 31.25)).to.equal('31.25%');
    expect(alertFigure('DAILY_LOSS', 1250)).to.equal('$1,250.00');
    expect(alertFigure('CONCURRENT_TRADES', 6)).to.equal('6');
  });

  it('sums the open positions\' unrealised P&L and names the one with the largest share at risk', () => {
    const trade = (symbol: ActiveRiskTrade['symbol'], riskPercentage: number, unrealizedPnL: number) => ({ symbol, riskPercentage, unrealizedPnL }) as ActiveRiskTrade;
    const summary = openPositionsSummary([trade('ETH', 0.4, 12.5), trade('MATIC', 1.25, -3), trade('BTC', 0.9, 0.5)]);
    expect(summary.unrealizedPnL).to.equal(10);
    expect(summary.riskiest?.symbol).to.equal('MATIC');
    expect(openPositionsSummary([])).to.deep.equal({ unrealizedPnL: 0, riskiest: null });
  });

  it('passes over an alert a reset resolved (it asks for nothing), acknowledged or not', () => {
    const alert = (id: string, severity: AlertSeverity, resolved: boolean) => ({ id, severity, acknowledged: false, resolved, timestamp: '2026-03-04T10:00:00.000Z' });
    expect(mostSevereAlert([alert('a', 'critical', true), alert('b', 'medium', false)])?.id).to.equal('b');
    expect(mostSevereAlert([alert('a', 'critical', true)])).to.equal(null);
    expect(resolutionLabel('PORTFOLIO_RESET')).to.equal('Resolved: the portfolio was reset');
  });
});
