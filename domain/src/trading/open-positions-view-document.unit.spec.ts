/**
 * The open-positions document as the risk monitor reads it: the one a user's first event creates
 * (whose user, an unopened portfolio, the default risk profile, no alert keys), `updatedAt` following
 * the time each kind of event carries, events of other slices ignored, and a portfolio event that
 * finds no open portfolio leaving it unopened with no coin marked as held.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { DEFAULT_RISK_PROFILE } from './contracts';
import { evolveOpenPositionsView, holdsField, type OpenPositionsView } from './open-positions-view';
import { evolvePortfolio, initialPortfolioState, type PortfolioState } from './portfolio';
import { placeSimulatedTrade } from './portfolio.decider';

const userId = '6f1c2a3b-0000-4000-8000-000000000003';

function tradeEvents(state: PortfolioState, tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number, now: string) {
  return placeSimulatedTrade({ type: 'PlaceSimulatedTrade', data: { userId, tradeId, symbol: 'ETH', side, amount, price, source: { kind: 'MANUAL' } }, metadata: { now } }, state);
}
/** A distinct time for each event, so each shows which one set updatedAt. */
const AT = {
  opened: '2026-01-05T10:00:00.000Z',
  placed: '2026-01-05T10:00:01.000Z',
  recorded: '2026-01-05T10:00:02.000Z',
  closed: '2026-01-05T10:00:03.000Z',
  reset: '2026-01-05T10:00:04.000Z',
  changed: '2026-01-05T10:00:05.000Z',
  raised: '2026-01-05T10:00:06.000Z',
  acknowledged: '2026-01-05T10:00:07.000Z',
  cleared: '2026-01-05T10:00:08.000Z',
  resolved: '2026-01-05T10:00:09.000Z',
};
const fold = (events: DomainEvent[], from: OpenPositionsView | null = null) => events.reduce<OpenPositionsView | null>((doc, e) => evolveOpenPositionsView(doc, e), from);

describe('open-positions document', function () {
  it("is created by a user's first risk event: the user, an unopened portfolio, the default profile with the change, no alert keys", function () {
    const doc = fold([
      { type: 'BotSettingsChanged', data: { userId, changes: { maxPositionSize: 7 }, settings: { maxPositionSize: 7, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true }, changedAt: 'T1' } },
    ]);
    expect(doc).to.deep.equal({ userId, portfolio: { status: 'unopened' }, profile: { ...DEFAULT_RISK_PROFILE, maxPositionSize: 7 }, alertKeys: {}, updatedAt: 'T1' });
  });

  it("is created by a user's first trade with the default risk profile", function () {
    const doc = fold(tradeEvents(initialPortfolioState(), 't1', 'BUY', 1, 3000, 'T1'))!;
    expect(doc.userId).to.equal(userId);
    expect(doc.profile).to.deep.equal(DEFAULT_RISK_PROFILE);
    expect(doc.alertKeys).to.deep.equal({});
    expect(doc[holdsField('ETH') as `holds_${string}`]).to.equal(true);
  });

  it('takes updatedAt from the time each kind of event carries', function () {
    const [opened, bought] = tradeEvents(initialPortfolioState(), 't1', 'BUY', 1, 3000, AT.placed);
    const portfolio = evolvePortfolio(evolvePortfolio(initialPortfolioState(), opened!), bought!);
    expect(portfolio.status === 'open' && portfolio.cashMicros).to.equal(6_997_000_000);
    const events: Array<[DomainEvent, string]> = [
      [{ ...opened!, data: { ...opened!.data, openedAt: AT.opened } } as DomainEvent, AT.opened],
      [bought! as DomainEvent, AT.placed],
      [{ type: 'PortfolioPeakRecorded', data: { userId, valueMicros: 10_100_000_000, recordedAt: AT.recorded } }, AT.recorded],
      [
        {
          type: 'PositionClosed',
          data: {
            userId,
            positionId: 't1',
            coinId: 'ethereum',
            symbol: 'ETH',
            reason: 'STOP_LOSS',
            quantity: 1,
            price: 2900,
            notionalMicros: 2_900_000_000,
            feeMicros: 2_900_000,
            costBasisClosedMicros: 3_003_000_000,
            entryNotionalClosedMicros: 3_000_000_000,
            realisedPnlMicros: -105_900_000,
            closedTradeIds: ['t1'],
            lotRule: 'FIFO',
            lots: [],
            closedAt: AT.closed,
          },
        },
        AT.closed,
      ],
      [{ type: 'PortfolioReset', data: { userId, closedPositions: [], closedTradeIds: [], cashBeforeMicros: 9_894_100_000, realisedPnlBeforeMicros: -105_900_000, startingCashMicros: 10_000_000_000, resetAt: AT.reset } }, AT.reset],
      [{ type: 'BotSettingsChanged', data: { userId, changes: { maxPositionSize: 7 }, settings: { maxPositionSize: 7, stopLossPercent: 2, takeProfitPercent: 5, dailyLossLimit: 500, enableNotifications: true, autoRetrain: true }, changedAt: AT.changed } }, AT.changed],
      [{ type: 'RiskAlertRaised', data: { userId, alertId: 'a1', conditionKey: 'DRAWDOWN', kind: 'DRAWDOWN', severity: 'critical', symbol: null, message: 'm', value: 1, threshold: 1, raisedAt: AT.raised } }, AT.raised],
      [{ type: 'RiskAlertAcknowledged', data: { userId, alertId: 'a1', acknowledgedAt: AT.acknowledged } }, AT.acknowledged],
      [{ type: 'AcknowledgedRiskAlertsCleared', data: { userId, alertIds: ['a1'], clearedAt: AT.cleared } }, AT.cleared],
      [{ type: 'RiskAlertsResolved', data: { userId, alertIds: [], reason: 'PORTFOLIO_RESET', resolvedAt: AT.resolved } }, AT.resolved],
    ];
    let doc: OpenPositionsView | null = null;
    for (const [event, time] of events) {
      doc = evolveOpenPositionsView(doc, event);
      expect(doc!.updatedAt, event.type).to.equal(time);
    }
    expect(doc!.portfolio.status === 'open' && doc!.portfolio.cashMicros, 'after the reset').to.equal(10_000_000_000);
    expect(doc).to.not.have.property(holdsField('ETH'));
  });

  it("ignores another slice's events: no document is made for them", function () {
    expect(evolveOpenPositionsView(null, { type: 'BotStarted', data: { userId, startedAt: 'T1' } })).to.equal(null);
    expect(evolveOpenPositionsView(null, { type: 'BotSignalRefused', data: { userId } })).to.equal(null);
  });

  it('keeps a portfolio unopened when a portfolio event finds none open (a stray peak), marking no coin as held', function () {
    const doc = fold([
      { type: 'RiskAlertRaised', data: { userId, alertId: 'a1', conditionKey: 'DRAWDOWN', kind: 'DRAWDOWN', severity: 'critical', symbol: null, message: 'm', value: 1, threshold: 1, raisedAt: 'T1' } },
      { type: 'PortfolioPeakRecorded', data: { userId, valueMicros: 10_100_000_000, recordedAt: 'T2' } },
    ])!;
    expect(doc.portfolio).to.deep.equal({ status: 'unopened' });
    expect(Object.keys(doc).filter((k) => k.startsWith('holds_'))).to.deep.equal([]);
    expect(doc.updatedAt).to.equal('T2');
  });
});
