import { expect } from 'chai';
import { allowed, freshItems, mirrorKey, mirrorToast, pauseToast } from './notification-rules';

const all = { botTrades: true, botStatus: true, riskAlerts: true, mirrorFills: true };

describe('notification rules', function () {
  it('each switch decides its kind; Bot Settings\' enableNotifications is the master switch of the bot\'s two', function () {
    expect(allowed('botTrades', all, true)).to.equal(true);
    expect(allowed('botTrades', { ...all, botTrades: false }, true)).to.equal(false);
    expect(allowed('botTrades', all, false)).to.equal(false);
    expect(allowed('botStatus', all, false)).to.equal(false);
    expect(allowed('riskAlerts', all, false)).to.equal(true);
    expect(allowed('riskAlerts', { ...all, riskAlerts: false }, true)).to.equal(false);
    expect(allowed('mirrorFills', { ...all, mirrorFills: false }, true)).to.equal(false);
  });

  it('what was there at the first look is the baseline; only what appears after is new', function () {
    const first = freshItems(null, [{ id: 'a' }, { id: 'b' }], (x) => x.id);
    expect(first.fresh).to.deep.equal([]);
    const second = freshItems(first.seen, [{ id: 'c' }, { id: 'a' }], (x) => x.id);
    expect(second.fresh).to.deep.equal([{ id: 'c' }]);
    expect(freshItems(second.seen, [{ id: 'c' }], (x) => x.id).fresh).to.deep.equal([]);
  });

  it('a mirrored order is news when it is sent and again when it fills or fails', function () {
    const order = { tradeId: 't', exchangeId: 'binance' as const, market: 'BTC/USDT', side: 'BUY' as const, amount: 0.01, paperPrice: 65000, status: 'requested' as const, testnetPrice: null, testnetAmount: null, differencePercent: null, error: null, requestedAt: '', updatedAt: '' };
    expect(mirrorKey(order)).not.to.equal(mirrorKey({ ...order, status: 'filled' }));
    expect(mirrorToast(order)).to.equal(null);
    expect(mirrorToast({ ...order, status: 'filled', testnetPrice: 65032.5, differencePercent: 0.05 })!.title).to.equal('Testnet Fill');
    expect(mirrorToast({ ...order, status: 'failed', error: { kind: 'rate-limited', message: 'Too many requests' } })!.description).to.contain('Too many requests');
  });

  it('the drawdown pause toasts when it changes, not when first seen', function () {
    expect(pauseToast(null, true, 'x')).to.equal(null);
    expect(pauseToast(false, false, null)).to.equal(null);
    expect(pauseToast(false, true, 'Drawdown 16% above 15%')!.title).to.equal('Bot Paused');
    expect(pauseToast(true, false, null)!.title).to.equal('Bot Resumed');
  });
});
