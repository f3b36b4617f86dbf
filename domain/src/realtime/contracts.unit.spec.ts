import { expect } from 'chai';
import { clientMessageSchema, serverMessageSchema } from './contracts';

describe('realtime contracts', function () {
  const tick = { coinId: 'ethereum', symbol: 'ETH', price: 3120.5, changePercent24h: -1.2, at: '2026-01-01T00:00:00.000Z' };

  it('reads every server message type the relay sends', function () {
    const messages = [
      { type: 'MARKET_UPDATE', data: tick },
      { type: 'AUTHENTICATED', data: { userId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' } },
      { type: 'AUTH_ERROR', data: { message: 'The token is invalid or expired' } },
      { type: 'LOGGED_OUT', data: {} },
      { type: 'ERROR', data: { message: 'Unknown message' } },
      { type: 'BOT_STATUS', data: { status: 'ACTIVE' } },
      { type: 'ML_UPDATE', data: { accuracy: 0.61 } },
    ];
    for (const m of messages) expect(serverMessageSchema.parse(m)).to.deep.equal(m);
  });

  it('refuses a MARKET_UPDATE that is not a tick, a BOT_STATUS without a status, and unknown types', function () {
    expect(serverMessageSchema.safeParse({ type: 'MARKET_UPDATE', data: { ...tick, coinId: 'dogecoin' } }).success).to.equal(false);
    expect(serverMessageSchema.safeParse({ type: 'MARKET_UPDATE', data: { ...tick, price: -1 } }).success).to.equal(false);
    expect(serverMessageSchema.safeParse({ type: 'BOT_STATUS', data: {} }).success).to.equal(false);
    expect(serverMessageSchema.safeParse({ type: 'ANNOUNCEMENT', data: {} }).success).to.equal(false);
  });

  it('accepts auth with a token and logout from a client, nothing else', function () {
    expect(clientMessageSchema.parse({ type: 'auth', token: 'abc' })).to.deep.equal({ type: 'auth', token: 'abc' });
    expect(clientMessageSchema.parse({ type: 'logout' })).to.deep.equal({ type: 'logout' });
    expect(clientMessageSchema.safeParse({ type: 'auth', token: '' }).success).to.equal(false);
    expect(clientMessageSchema.safeParse({ type: 'auth', token: 'x'.repeat(8193) }).success).to.equal(false);
    expect(clientMessageSchema.safeParse({ type: 'logout', extra: 1 }).success).to.equal(false);
    expect(clientMessageSchema.safeParse({ type: 'subscribe' }).success).to.equal(false);
  });
});
