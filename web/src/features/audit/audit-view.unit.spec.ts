import { expect } from 'chai';
import { asOfFromInput, isoToLocalInput, localInputToIso, pageLabel, summariseEvent } from './audit-view';

describe('audit tab helpers', function () {
  it('turns a datetime-local value into an ISO instant and back', function () {
    const iso = localInputToIso('2026-03-04T05:06:07');
    expect(iso).to.equal(new Date(2026, 2, 4, 5, 6, 7).toISOString());
    expect(isoToLocalInput(iso!)).to.equal('2026-03-04T05:06:07');
    expect(localInputToIso('2026-03-04T05:06')).to.equal(new Date(2026, 2, 4, 5, 6).toISOString());
  });

  it('takes an as-of typed to the second as the end of that second, never later than now', function () {
    const now = new Date(2026, 2, 4, 5, 6, 7, 400);
    // Everything shown as 05:06:05 happened up to 05:06:05.999.
    expect(asOfFromInput('2026-03-04T05:06:05', now)).to.equal(new Date(2026, 2, 4, 5, 6, 5, 999).toISOString());
    // The input leaves out :00 seconds; it still shows them (step 1).
    expect(asOfFromInput('2026-03-04T05:06', now)).to.equal(new Date(2026, 2, 4, 5, 6, 0, 999).toISOString());
    // The second being lived ends now (the server refuses a future asOf), and so does a later time.
    expect(asOfFromInput('2026-03-04T05:06:07', now)).to.equal(now.toISOString());
    expect(asOfFromInput(isoToLocalInput(now.toISOString()), now)).to.equal(now.toISOString());
    expect(asOfFromInput('2027-01-01T00:00:00', now)).to.equal(now.toISOString());
    // Milliseconds typed are taken as they are.
    expect(asOfFromInput('2026-03-04T05:06:05.250', now)).to.equal(new Date(2026, 2, 4, 5, 6, 5, 250).toISOString());
    expect(asOfFromInput('', now)).to.equal(null);
    expect(asOfFromInput('yesterday', now)).to.equal(null);
  });

  it('refuses what is not a date-time', function () {
    for (const bad of ['', 'yesterday', '2026-03-04', '2026-13-40T99:99', '2026-03-04T05:06Z']) expect(localInputToIso(bad), bad).to.equal(null);
  });

  it('summarises trades, subscription changes and other events', function () {
    expect(summariseEvent({ type: 'SimulatedTradePlaced', data: { side: 'BUY', quantity: 0.5, symbol: 'ETH', price: 3000 } })).to.equal('BUY 0.5 ETH @ 3000');
    expect(summariseEvent({ type: 'SubscriptionChangedByAdmin', data: { previousTier: 'FREE', previousStatus: 'ACTIVE', tier: 'PREMIUM', status: 'ACTIVE' } })).to.equal('FREE/ACTIVE -> PREMIUM/ACTIVE');
    expect(summariseEvent({ type: 'BotSettingsChanged', data: { userId: 'u', changes: { stopLossPercent: 3 } } })).to.equal('changes: {"stopLossPercent":3}');
    expect(pageLabel(2, 5, 101)).to.equal('Page 2 of 5 (101 events)');
  });
});
