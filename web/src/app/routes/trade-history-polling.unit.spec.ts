/**
 * What the Trade History screen polls and how often (premium-and-account.md section 7: GET
 * /api/trades every 30 s, where the dashboard's Recent Trades poll every 10 s under another key),
 * read from the screen itself rendered in the shell's frame (src/testing/screen-polls.ts). Every
 * screen in the shell also polls the portfolio (sidebar, 10 s) and ml-status (shell, 60 s). The bot's
 * refused signals (GET /api/bot/decisions, issue 17: not in the spec, which has no bot decisions) are
 * polled with the trades, every 30 s, for a signed-in user.
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const load = () => import('./trade-history');
const SHELL = { 'GET /api/portfolio': 'every 10 s', 'GET /api/ml-status': 'every 60 s' };

describe('trade history polling (premium spec section 7)', function () {
  this.timeout(60_000);

  it("polls the first page of a signed-in user's trades every 30 s", async () => {
    expect(await screenPolls({ path: '/trade-history', load, viewer: viewer('FREE') })).to.deep.equal({
      ...SHELL,
      'GET /api/trades?page=1&pageSize=25': 'every 30 s',
      'GET /api/bot/decisions': 'every 30 s',
    });
  });

  it('asks nothing of its own for a visitor (dashes and a Login link)', async () => {
    expect(await screenPolls({ path: '/trade-history', load, viewer: null })).to.deep.equal({ ...SHELL, 'GET /api/trades?page=1&pageSize=25': 'not until enabled (then every 30 s)' });
  });
});
