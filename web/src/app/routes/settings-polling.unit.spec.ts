/**
 * What Settings and Exchange API Integration poll (issue 21), read from the screens rendered in the
 * shell's frame: only the open tab's reads, at their intervals; nothing of their own for visitors;
 * nothing premium for a free user.
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const SHELL = { 'GET /api/portfolio': 'every 10 s', 'GET /api/ml-status': 'every 60 s' };

describe('settings and API integration polling (issue 21)', function () {
  this.timeout(60_000);

  it('Settings opens on Bot Settings: the risk profile (GET /api/risk) every 60 s; the other tabs their own reads', async () => {
    const load = () => import('./settings');
    expect(await screenPolls({ path: '/settings', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/risk': 'every 60 s' });
    expect(await screenPolls({ path: '/settings?tab=notifications', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/risk': 'every 60 s', 'GET /api/settings': 'every 60 s' });
    expect(await screenPolls({ path: '/settings?tab=risk', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/risk': 'every 60 s', 'GET /api/risk/parameters': 'every 30 s' });
    expect(await screenPolls({ path: '/settings', load, viewer: null })).to.deep.equal({ ...SHELL, 'GET /api/risk': 'not until enabled (then every 60 s)' });
  });

  it('API Integration: the exchanges every 30 s for premium users, nothing for free users and visitors', async () => {
    const load = () => import('./api-integration');
    expect(await screenPolls({ path: '/api-integration', load, viewer: viewer('PREMIUM') })).to.deep.equal({ ...SHELL, 'GET /api/exchanges': 'every 30 s' });
    expect(await screenPolls({ path: '/api-integration?tab=trading', load, viewer: viewer('PREMIUM') })).to.deep.equal({ ...SHELL, 'GET /api/exchanges': 'every 30 s', 'GET /api/settings': 'every 60 s' });
    expect(await screenPolls({ path: '/api-integration', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/exchanges': 'not until enabled (then every 30 s)' });
  });
});
