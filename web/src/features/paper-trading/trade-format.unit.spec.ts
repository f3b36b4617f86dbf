import { expect } from 'chai';
import { MISSING } from '../../lib/number-format';
import { formatAmount, formatTradePnl, formatTradeTime } from './trade-format';

describe('paper-trading: trade formats (spec section 9)', () => {
  it('shows amounts to 4 decimals with the coin', () => {
    expect(formatAmount(0.01, 'ETH')).to.equal('0.0100 ETH');
    expect(formatAmount(1.23456789, 'BTC')).to.equal('1.2346 BTC');
    expect(formatAmount(1234.5, 'ADA')).to.equal('1,234.5000 ADA');
  });

  it('signs and colours the P&L, marks it unrealised while the position is open', () => {
    expect(formatTradePnl(12.345, true)).to.deep.equal({ text: '+$12.35', tone: 'up', note: null });
    expect(formatTradePnl(-3.5, false)).to.deep.equal({ text: '-$3.50', tone: 'down', note: 'unrealised' });
    expect(formatTradePnl(0, true)).to.deep.equal({ text: '$0.00', tone: 'flat', note: null });
  });

  it('shows a dash, not $0.00, for a trade without a P&L of its own (a closed BUY)', () => {
    expect(formatTradePnl(null, false)).to.deep.equal({ text: MISSING, tone: 'flat', note: null });
  });

  it("shows today's trades by time and older ones with the date", () => {
    const now = new Date(2026, 10, 22, 15, 0, 0);
    expect(formatTradeTime(new Date(2026, 10, 22, 9, 5, 7).toISOString(), now)).to.equal('09:05:07');
    expect(formatTradeTime(new Date(2026, 10, 20, 9, 5, 7).toISOString(), now)).to.equal('Nov 20, 09:05');
    expect(formatTradeTime('not a date', now)).to.equal(MISSING);
  });
});
