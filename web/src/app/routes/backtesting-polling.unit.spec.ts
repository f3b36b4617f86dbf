/**
 * What the Strategy Backtesting screen reads and how often (premium-and-account.md section 7: GET
 * /api/backtest/history, premium, every 30 s, on every tab; the strategy catalogue once), read from the screen
 * itself rendered in the shell's frame (src/testing/screen-polls.ts), one tab at a time. Every screen
 * in the shell also polls the portfolio (sidebar, 10 s) and ml-status (shell, 60 s).
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const load = () => import('./backtesting');
const SHELL = { 'GET /api/portfolio': 'every 10 s', 'GET /api/ml-status': 'every 60 s' };
const ID = '3f2b8f3e-8d7c-4b35-9a51-2f0f5c1e9a77';

describe('backtesting polling (premium spec section 7)', function () {
  this.timeout(60_000);

  it('Run Backtest: the strategy catalogue once; for premium users the history every 30 s (a run under way from before holds Run)', async () => {
    expect(await screenPolls({ path: '/backtesting', load, viewer: viewer('PREMIUM') })).to.deep.equal({
      ...SHELL,
      'GET /api/backtest/strategies': 'once',
      'GET /api/backtest/history': 'every 30 s',
    });
    expect(await screenPolls({ path: '/backtesting?tab=run', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/backtest/strategies': 'once' });
  });

  it('History: polls the history every 30 s for premium users', async () => {
    expect(await screenPolls({ path: '/backtesting?tab=history', load, viewer: viewer('PREMIUM') })).to.deep.equal({
      ...SHELL,
      'GET /api/backtest/strategies': 'once',
      'GET /api/backtest/history': 'every 30 s',
    });
  });

  // The result's own refetch while it runs (every 2 s, none once ended) is a function of its status: get-backtest.unit.spec.ts.
  it('Results: the backtest in the address, else the history to find the newest', async () => {
    expect(await screenPolls({ path: `/backtesting?tab=results&id=${ID}`, load, viewer: viewer('PREMIUM') })).to.deep.equal({
      ...SHELL,
      'GET /api/backtest/strategies': 'once',
      'GET /api/backtest/history': 'every 30 s',
      [`GET /api/backtest/${ID}`]: 'once',
    });
    expect(await screenPolls({ path: '/backtesting?tab=results', load, viewer: viewer('PREMIUM') })).to.deep.equal({
      ...SHELL,
      'GET /api/backtest/strategies': 'once',
      'GET /api/backtest/history': 'every 30 s',
    });
  });

  it('free users: no history and no results are asked for; visitors: nothing of its own', async () => {
    expect(await screenPolls({ path: '/backtesting?tab=history', load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/backtest/strategies': 'once' });
    expect(await screenPolls({ path: `/backtesting?tab=results&id=${ID}`, load, viewer: viewer('FREE') })).to.deep.equal({ ...SHELL, 'GET /api/backtest/strategies': 'once' });
    expect(await screenPolls({ path: '/backtesting', load, viewer: null })).to.deep.equal(SHELL);
  });
});
