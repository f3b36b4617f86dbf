/**
 * What AI Trading Strategies polls (premium-and-account.md section 7: GET /api/strategies every 30 s,
 * premium only; the live signals every 10 s like the dashboard's signals), read from the screen itself
 * rendered in the shell's frame (src/testing/screen-polls.ts). Non-premium users and visitors see the
 * upsell, which asks for nothing of its own.
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const load = () => import('./ai-signals');
const SHELL = { 'GET /api/portfolio': 'every 10 s', 'GET /api/ml-status': 'every 60 s' };

describe('AI Trading Strategies polling (premium spec section 7)', function () {
  this.timeout(60_000);

  it('premium: the strategies every 30 s and their live signals every 10 s, on every tab', async () => {
    for (const tab of ['', '?tab=signals']) {
      expect(await screenPolls({ path: `/ai-signals${tab}`, load, viewer: viewer('PREMIUM') })).to.deep.equal({ ...SHELL, 'GET /api/strategies': 'every 30 s', 'GET /api/strategies/signals': 'every 10 s' });
    }
  });

  it('free users and visitors (the upsell): nothing of its own', async () => {
    expect(await screenPolls({ path: '/ai-signals', load, viewer: viewer('FREE') })).to.deep.equal(SHELL);
    expect(await screenPolls({ path: '/ai-signals', load, viewer: null })).to.deep.equal(SHELL);
  });
});
