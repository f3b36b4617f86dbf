/**
 * The screens whose spec polls nothing of their own: inside the shell they poll only the shell's
 * reads (the sidebar's portfolio every 10 s and the shell hook's ml-status every 60 s, dashboard
 * spec section 7) and load their own data once; /landing, /login and /signup (no shell) poll
 * nothing. Read from each screen rendered as the route table mounts it (src/testing/screen-polls.ts).
 * The dashboard, Risk Management and Trade History have specs of their own.
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const SHELL = { 'GET /api/portfolio': 'every 10 s', 'GET /api/ml-status': 'every 60 s' };

describe('polling of the screens without polls of their own', function () {
  this.timeout(60_000);

  it('Subscription and Billing: the subscription and the plans, once (the billing history with its tab)', async () => {
    expect(await screenPolls({ path: '/subscription', load: () => import('./subscription'), viewer: viewer('PREMIUM') })).to.deep.equal({
      ...SHELL,
      'GET /api/plans': 'once',
      'GET /api/subscription': 'once',
    });
  });

  it('Admin Panel: the stats and the first page of users, once, for an admin', async () => {
    expect(await screenPolls({ path: '/admin', load: () => import('./admin'), viewer: viewer('FREE', { isAdmin: true }) })).to.deep.equal({
      ...SHELL,
      'GET /api/admin/stats': 'once',
      'GET /api/admin/users?page=1&pageSize=20': 'once',
    });
  });

  it('payment confirmation, API reference, 404 and the screens still to come: the shell only (plus the OpenAPI document once)', async () => {
    expect(await screenPolls({ path: '/payment-success?session_id=cs_1', load: () => import('./payment-success'), viewer: viewer('PREMIUM') })).to.deep.equal(SHELL);
    expect(await screenPolls({ path: '/api-docs', load: () => import('./api-docs'), viewer: null })).to.deep.equal({ ...SHELL, 'GET /api/openapi.json': 'once' });
    expect(await screenPolls({ path: '/nowhere', load: () => import('./not-found'), viewer: null })).to.deep.equal(SHELL);
    const placeholder = async () => {
      const [{ createElement }, { default: PlaceholderRoute }] = await Promise.all([import('react'), import('./placeholder')]);
      return { default: () => createElement(PlaceholderRoute, { title: 'AI Trading Strategies' }) };
    };
    expect(await screenPolls({ path: '/ai-signals', load: placeholder, viewer: viewer('PREMIUM') })).to.deep.equal(SHELL);
  });

  it('landing, sign-in and sign-up (outside the shell): the landing page loads its figures and plans once, the forms nothing', async () => {
    expect(await screenPolls({ path: '/landing', load: () => import('./landing'), viewer: null, inShell: false })).to.deep.equal({ 'GET /api/public/stats': 'once', 'GET /api/plans': 'once' });
    expect(await screenPolls({ path: '/login', load: () => import('./login'), viewer: null, inShell: false })).to.deep.equal({});
    expect(await screenPolls({ path: '/signup', load: () => import('./signup'), viewer: null, inShell: false })).to.deep.equal({});
  });
});
