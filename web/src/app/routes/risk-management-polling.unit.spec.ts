/**
 * What the Risk Management screen polls and how often (premium-and-account.md section 7: risk
 * parameters 30 s, active trades 10 s, risk alerts 5 s), read from the screen itself rendered in the
 * shell's frame (src/testing/screen-polls.ts), one tab at a time: only the open tab is mounted.
 * Every screen in the shell also polls the portfolio (sidebar, 10 s) and ml-status (shell, 60 s).
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const load = () => import('./risk-management');
const SHELL = { 'GET /api/portfolio': 'every 10 s', 'GET /api/ml-status': 'every 60 s' };

describe('risk management polling (premium spec section 7)', function () {
  this.timeout(60_000);

  it('polls the risk parameters every 30 s on the Parameters tab (the default)', async () => {
    expect(await screenPolls({ path: '/risk-management', load, viewer: viewer('PREMIUM') })).to.deep.equal({ ...SHELL, 'GET /api/risk/parameters': 'every 30 s' });
    expect(await screenPolls({ path: '/risk-management?tab=parameters', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/risk/parameters': 'every 30 s' });
  });

  it('polls the active trades every 10 s on the Active Trades tab', async () => {
    expect(await screenPolls({ path: '/risk-management?tab=active-trades', load, viewer: viewer('PREMIUM') })).to.deep.equal({ ...SHELL, 'GET /api/risk/active-trades': 'every 10 s' });
  });

  it('polls the risk alerts every 5 s on the Risk Alerts tab', async () => {
    expect(await screenPolls({ path: '/risk-management?tab=alerts', load, viewer: viewer('PREMIUM') })).to.deep.equal({ ...SHELL, 'GET /api/risk/alerts': 'every 5 s' });
  });

  it('polls nothing of its own on the Calculator tab, for free users on the premium tabs, or for visitors', async () => {
    expect(await screenPolls({ path: '/risk-management?tab=calculator', load, viewer: viewer('PREMIUM') })).to.deep.equal(SHELL);
    expect(await screenPolls({ path: '/risk-management?tab=alerts', load, viewer: viewer('FREE') })).to.deep.equal(SHELL);
    expect(await screenPolls({ path: '/risk-management', load, viewer: null })).to.deep.equal(SHELL);
  });
});
