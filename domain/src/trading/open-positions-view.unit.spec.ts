import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { placeSimulatedTrade } from './portfolio.decider';
import { evolvePortfolio, initialPortfolioState, type PortfolioState } from './portfolio';
import { DEFAULT_RISK_PARAMETERS } from './contracts';
import { evolveOpenPositionsView, holdsField, openPositionsDocumentId, profileOfView, type OpenPositionsView } from './open-positions-view';

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
    // The document keeps no trade-id memory (either part): it does not grow with the trades.
    expect(doc.portfolio.status === 'open' && [doc.portfolio.recentTradeIds, doc.portfolio.newTradeIds]).to.deep.equal([[], []]);
    const sold = fold(trades([['ETH', 'BUY', 1, 3000], ['BTC', 'BUY', 0.01, 60000], ['ETH', 'SELL', 1, 3100]]))!;
    expect(sold).to.not.have.property(holdsField('ETH'));
    expect(sold[holdsField('BTC') as `holds_${string}`]).to.equal(true);
  });

  it('keeps the one risk profile (changed through either view) and the condition keys of alerts until they are cleared', function () {
    const alert = (conditionKey: string, alertId: string): DomainEvent => ({
      type: 'RiskAlertRaised',
      data: { userId, alertId, conditionKey, kind: 'DRAWDOWN', severity: 'critical', symbol: null, message: 'm', value: 1, threshold: 1, raisedAt: 't' },
    });
    const doc = fold([
      { type: 'BotSettingsChanged', data: { userId, changes: { stopLossValue: 4 }, settings: { maxPositionSize: 5, stopLossPercent: 4, takeProfitPercent: 10, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true }, changedAt: 't' } },
      {
        type: 'RiskParametersChanged',
        data: { userId, parameters: { ...DEFAULT_RISK_PARAMETERS, stopLossValue: 4, maxPositionSize: 7 }, previous: { ...DEFAULT_RISK_PARAMETERS, stopLossValue: 4 }, changes: { maxPositionSize: 7 }, changedAt: 't' },
      },
      alert('DRAWDOWN', 'a1'),
      alert('CONCURRENT_TRADES', 'a2'),
      { type: 'AcknowledgedRiskAlertsCleared', data: { userId, alertIds: ['a1'], clearedAt: 't' } },
    ])!;
    expect(doc.profile).to.include({ stopLossValue: 4, maxPositionSize: 7 });
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

  it('reads a document written before the one profile as its two sets joined, the bot settings\' quantities from the bot settings, and moves it to the profile on its next event', function () {
    const legacy = {
      userId,
      portfolio: { status: 'unopened' as const },
      settings: { maxPositionSize: 8, stopLossPercent: 3, takeProfitPercent: 9, dailyLossLimit: 700, enableNotifications: true, autoRetrain: false },
      parameters: { ...DEFAULT_RISK_PARAMETERS, maxPositionSize: 5, maxDrawdown: 20, stopLossType: 'trailing' as const },
      alertKeys: {},
      updatedAt: 't',
    };
    expect(profileOfView(legacy)).to.include({ maxPositionSize: 8, stopLossValue: 3, takeProfitRatio: 3, maxDailyLoss: 700, maxDrawdown: 20, stopLossType: 'trailing', autoRetrain: false });
    const next = evolveOpenPositionsView(legacy, { type: 'RiskAlertRaised', data: { userId, alertId: 'a', conditionKey: 'K', kind: 'DRAWDOWN', severity: 'critical', symbol: null, message: 'm', value: 1, threshold: 1, raisedAt: 't' } })!;
    expect(next.profile).to.include({ maxPositionSize: 8, maxDrawdown: 20 });
    expect(next).to.not.have.property('settings');
  });
});
