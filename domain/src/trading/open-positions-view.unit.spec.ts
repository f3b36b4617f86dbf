import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { placeSimulatedTrade } from './portfolio.decider';
import { evolvePortfolio, initialPortfolioState, type PortfolioState } from './portfolio';
import { evolveOpenPositionsView, holdsField, openPositionsDocumentId, type OpenPositionsView } from './open-positions-view';

const userId = '6f1c2a3b-0000-4000-8000-000000000002';

function trades(specs: Array<[string, 'BUY' | 'SELL', number, number]>): DomainEvent[] {
  let state: PortfolioState = initialPortfolioState();
  const events: DomainEvent[] = [];
  specs.forEach(([symbol, side, amount, price], i) => {
    const produced = placeSimulatedTrade({ type: 'PlaceSimulatedTrade', data: { userId, tradeId: `t${i}`, symbol, side, amount, price, source: { kind: 'MANUAL' } }, metadata: { now: '2026-01-05T10:00:00.000Z' } }, state);
    for (const e of produced) state = evolvePortfolio(state, e);
    events.push(...produced);
  });
  return events;
}
const fold = (events: DomainEvent[], from: OpenPositionsView | null = null) => events.reduce<OpenPositionsView | null>((doc, e) => evolveOpenPositionsView(doc, e), from);

describe('open-positions view', function () {
  it('keys a portfolio or risk event by its user, and nothing else', function () {
    const [opened, traded] = trades([['ETH', 'BUY', 1, 3000]]);
    expect(openPositionsDocumentId(opened!)).to.equal(userId);
    expect(openPositionsDocumentId(traded!)).to.equal(userId);
    expect(openPositionsDocumentId({ type: 'RiskParametersChanged', data: { userId } })).to.equal(userId);
    expect(openPositionsDocumentId({ type: 'RiskParametersChanged', data: { userId: 42 } })).to.equal(null);
    expect(openPositionsDocumentId({ type: 'UserProfileUpdated', data: { userId } })).to.equal(null);
    expect(openPositionsDocumentId({ type: 'BotStarted', data: { userId } })).to.equal(null);
  });

  it('names the holders field by the upper-case symbol', function () {
    expect(holdsField('eth')).to.equal('holds_ETH');
    expect(holdsField('BTC')).to.equal('holds_BTC');
  });

  it('marks the holders of each coin, and unmarks them when the position is gone', function () {
    const doc = fold(trades([['ETH', 'BUY', 1, 3000], ['BTC', 'BUY', 0.01, 60000]]))!;
    expect(doc[holdsField('ETH') as `holds_${string}`]).to.equal(true);
    expect(doc[holdsField('BTC') as `holds_${string}`]).to.equal(true);
    expect(doc.portfolio.status === 'open' && doc.portfolio.recentTradeIds).to.deep.equal([]);
    const sold = fold(trades([['ETH', 'BUY', 1, 3000], ['BTC', 'BUY', 0.01, 60000], ['ETH', 'SELL', 1, 3100]]))!;
    expect(sold).to.not.have.property(holdsField('ETH'));
    expect(sold[holdsField('BTC') as `holds_${string}`]).to.equal(true);
  });

  it('keeps the bot settings, the risk parameters and the condition keys of alerts until they are cleared', function () {
    const alert = (conditionKey: string, alertId: string): DomainEvent => ({
      type: 'RiskAlertRaised',
      data: { userId, alertId, conditionKey, kind: 'DRAWDOWN', severity: 'critical', symbol: null, message: 'm', value: 1, threshold: 1, raisedAt: 't' },
    });
    const doc = fold([
      { type: 'BotSettingsChanged', data: { userId, changes: { stopLossPercent: 4 }, settings: { maxPositionSize: 5, stopLossPercent: 4, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true }, changedAt: 't' } },
      alert('DRAWDOWN', 'a1'),
      alert('CONCURRENT_TRADES', 'a2'),
      { type: 'AcknowledgedRiskAlertsCleared', data: { userId, alertIds: ['a1'], clearedAt: 't' } },
    ])!;
    expect(doc.settings.stopLossPercent).to.equal(4);
    expect(doc.alertKeys).to.deep.equal({ CONCURRENT_TRADES: 'a2' });
  });

  it('lets go of the condition keys of alerts a reset resolved, so the risk monitor may raise them again', function () {
    const alert = (conditionKey: string, alertId: string): DomainEvent => ({
      type: 'RiskAlertRaised',
      data: { userId, alertId, conditionKey, kind: 'DRAWDOWN', severity: 'critical', symbol: null, message: 'm', value: 1, threshold: 1, raisedAt: 't' },
    });
    const doc = fold([alert('DRAWDOWN', 'a1'), alert('DAILY_LOSS_80@2026-01-05', 'a2'), { type: 'RiskAlertsResolved', data: { userId, alertIds: ['a1'], reason: 'PORTFOLIO_RESET', resolvedAt: 't2' } }])!;
    expect(doc.alertKeys).to.deep.equal({ 'DAILY_LOSS_80@2026-01-05': 'a2' });
    expect(doc.updatedAt).to.equal('t2');
  });
});
