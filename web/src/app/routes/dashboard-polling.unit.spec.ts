/**
 * What the dashboard polls and how often (dashboard-and-sign-in.md section 7), read from the
 * dashboard itself rendered in the shell's frame (src/testing/screen-polls.tsx): a premium user's,
 * who sees the risk overview, and a visitor's, who must not call the premium risk reads (section 6).
 */
import { expect } from 'chai';
import { screenPolls, viewer } from '../../testing/screen-polls';

const load = () => import('./dashboard');

/** Section 7 for every viewer (the selected coin is ETH by default, its chart 7 days). */
const EVERYONE = {
  'GET /api/portfolio': 'every 10 s',
  'GET /api/price?symbol=ETH': 'every 5 s',
  'GET /api/signals?symbol=ETH': 'every 10 s',
  'GET /api/signals': 'every 10 s',
  'GET /api/trades': 'every 10 s',
  'GET /api/indicators?symbol=ETH': 'every 30 s',
  // 30 s on the dashboard, 60 s in the shell hook: the dashboard's panel sets the pace here.
  'GET /api/ml-status': 'every 30 s',
  // The model types for the ML panel's Create form: read when the form opens, not polled.
  'GET /api/ml/model-types': 'not until enabled',
  'GET /api/coins/supported': 'once',
  // The coin list's prices, polled only while the Select Cryptocurrency dialog is open.
  'GET /api/coins/prices': 'not until enabled (then every 30 s)',
  'GET /api/coins/ethereum/ohlc?days=7': 'every 60 s',
  // The 24h Performance card's per-coin summary (its path and interval are not in the spec; polled like the coin's price).
  'GET /api/coins/ethereum/summary': 'every 10 s',
  // No GET /api/coins/{coinId}/price (10 s): the coin selector shows the price card's live price
  // (/api/price above and the ticks) rather than a second poll of the same figure.
};

describe('dashboard polling (dashboard spec section 7)', function () {
  // The first render imports the whole dashboard through tsx.
  this.timeout(60_000);

  it("polls a premium user's risk reads as section 7 says: risk 60 s, active trades 30 s, alerts 10 s", async () => {
    expect(await screenPolls({ path: '/', load, viewer: viewer('PREMIUM') })).to.deep.equal({
      ...EVERYONE,
      'GET /api/risk': 'every 60 s',
      'GET /api/risk/active-trades': 'every 30 s',
      'GET /api/risk/alerts': 'every 10 s',
    });
  });

  it("polls a free user's risk settings (60 s) but none of the premium risk reads", async () => {
    expect(await screenPolls({ path: '/', load, viewer: viewer('FREE') })).to.deep.equal({ ...EVERYONE, 'GET /api/risk': 'every 60 s' });
  });

  it('polls no risk read for a visitor (the risk cards show the defaults and a login link)', async () => {
    const polls = await screenPolls({ path: '/', load, viewer: null });
    expect(polls).to.deep.equal({ ...EVERYONE, 'GET /api/risk': 'not until enabled (then every 60 s)' });
  });
});
