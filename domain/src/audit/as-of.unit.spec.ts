import { expect } from 'chai';
import { inGlobalOrder, portfolioAsOf, prefixAsOf, priceAtFromCandles, subscriptionAsOf } from './as-of';
import type { StoredEventLike } from './contracts';

const ev = (revision: number, at: string, type: string, data: Record<string, unknown>, position = `p${revision}`): StoredEventLike => ({
  streamId: 's',
  revision: BigInt(revision),
  position,
  type,
  data,
  metadata: { at },
});

describe('audit as-of replay', function () {
  it('takes the prefix of the stream up to asOf (inclusive) and counts the later events', function () {
    const events = [ev(0, '2026-01-01T10:00:00Z', 'A', {}), ev(1, '2026-01-01T11:00:00Z', 'B', {}), ev(2, '2026-01-01T12:00:00Z', 'C', {})];
    expect(prefixAsOf(events, new Date('2026-01-01T11:00:00Z')).applied.map((e) => e.type)).to.deep.equal(['A', 'B']);
    expect(prefixAsOf(events, new Date('2026-01-01T10:59:59.999Z')).later).to.equal(2);
    expect(prefixAsOf(events, new Date('2025-01-01T00:00:00Z')).applied).to.deep.equal([]);
  });

  it('folds a portfolio through its own evolve', function () {
    const opened = ev(0, '2026-01-01T10:00:00Z', 'PortfolioOpened', { userId: 'u', startingCashMicros: 10_000_000_000, openedAt: '2026-01-01T10:00:00Z' });
    const buy = ev(1, '2026-01-01T11:00:00Z', 'SimulatedTradePlaced', {
      userId: 'u', tradeId: 't1', coinId: 'ethereum', symbol: 'ETH', side: 'BUY', quantity: 1, price: 3000, notionalMicros: 3_000_000_000, feeMicros: 3_000_000,
      costBasisClosedMicros: 0, entryNotionalClosedMicros: 0, realisedPnlMicros: 0, source: { kind: 'MANUAL' }, closedTradeIds: [], placedAt: '2026-01-01T11:00:00Z',
    });
    const before = portfolioAsOf([opened, buy], new Date('2026-01-01T10:30:00Z'));
    expect(before.state).to.include({ status: 'open', cashMicros: 10_000_000_000 });
    const after = portfolioAsOf([opened, buy], new Date('2026-01-01T11:30:00Z'));
    expect(after.state.status === 'open' && after.state.cashMicros).to.equal(10_000_000_000 - 3_003_000_000);
    expect(portfolioAsOf([], new Date()).state.status).to.equal('unopened');
  });

  it('reads stored portfolio events through their upcaster, as the command side does: a version 2 bot BUY follows the profile, a manual one has no automatic exit (issue 17)', function () {
    const opened = ev(0, '2026-01-01T10:00:00Z', 'PortfolioOpened', { userId: 'u', startingCashMicros: 10_000_000_000, openedAt: '2026-01-01T10:00:00Z' });
    const fill = {
      userId: 'u', coinId: 'ethereum', symbol: 'ETH', side: 'BUY', quantity: 1, price: 3000, notionalMicros: 3_000_000_000, feeMicros: 3_000_000,
      costBasisClosedMicros: 0, entryNotionalClosedMicros: 0, realisedPnlMicros: 0, closedTradeIds: [], lotRule: 'FIFO', lots: [], placedAt: '2026-01-01T11:00:00Z',
    };
    const v2 = (revision: number, data: Record<string, unknown>) => ({ ...ev(revision, '2026-01-01T11:00:00Z', 'SimulatedTradePlaced', data), metadata: { at: '2026-01-01T11:00:00Z', schemaVersion: 2 } });
    const bot = v2(1, { ...fill, tradeId: 'b1', source: { kind: 'SIGNAL', eventId: 'e', signalId: 's', signalType: 'BUY', candleTime: '2026-01-01T10:55:00Z' } });
    const manual = v2(2, { ...fill, tradeId: 'm1', symbol: 'BTC', coinId: 'bitcoin', price: 60_000, quantity: 0.05, source: { kind: 'MANUAL' } });
    const { state } = portfolioAsOf([opened, bot, manual], new Date('2026-01-01T12:00:00Z'));
    if (state.status !== 'open') throw new Error('open');
    expect(state.positions.ETH!.exits).to.deep.equal({ kind: 'PROFILE', atr: null, sigma: null });
    expect(state.positions.BTC!.exits).to.deep.equal({ kind: 'NONE' });
  });

  it('folds a subscription through its decider', function () {
    const change = ev(0, '2026-01-02T00:00:00Z', 'SubscriptionChangedByAdmin', { userId: 'u', tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', previousStatus: 'ACTIVE', changedBy: 'a', changedAt: '2026-01-02T00:00:00Z' });
    expect(subscriptionAsOf([change], new Date('2026-01-01T00:00:00Z')).state).to.include({ tier: 'FREE', status: 'ACTIVE' });
    expect(subscriptionAsOf([change], new Date('2026-01-03T00:00:00Z')).state).to.include({ tier: 'PREMIUM', status: 'ACTIVE' });
  });

  it('merges streams into the global order', function () {
    const a = [ev(0, 'x', 'A0', {}, '002'), ev(1, 'x', 'A1', {}, '005')];
    const b = [ev(0, 'x', 'B0', {}, '001'), ev(1, 'x', 'B1', {}, '004')];
    expect(inGlobalOrder([a, b]).map((e) => e.type)).to.deep.equal(['B0', 'A0', 'B1', 'A1']);
  });

  it('prices at asOf with the open of the candle containing it, never a later one', function () {
    const candles = [0, 1, 2].map((i) => ({ time: Date.UTC(2026, 0, 1, i), open: 100 + i, high: 200, low: 50, close: 150 + i, volume: 1 }));
    expect(priceAtFromCandles(candles, new Date(Date.UTC(2026, 0, 1, 1, 30)), 60)).to.deep.equal({ price: 101, candleTime: '2026-01-01T01:00:00.000Z' });
    expect(priceAtFromCandles(candles, new Date(Date.UTC(2025, 11, 31)), 60)).to.equal(null);
    expect(priceAtFromCandles(candles, new Date(Date.UTC(2026, 0, 1, 3, 0)), 60)).to.equal(null);
  });
});
