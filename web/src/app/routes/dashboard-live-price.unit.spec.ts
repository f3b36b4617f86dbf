/**
 * One live price for the selected coin: the header's coin selector and the Current Price card show
 * the same figure at the same moment (issue 16 item 8: they read two endpoints polled at different
 * intervals, and only the card followed the socket's ticks). The dashboard is rendered to HTML
 * (src/testing) with two different answers in the cache, one per endpoint, so reading the wrong one
 * shows.
 */
import { expect } from 'chai';
import { screenHtml, viewer } from '../../testing/screen-polls';

const at = '2026-11-22T12:00:00.000Z';
/** GET /api/price?symbol=ETH, the price card's poll (5 s). */
const polled = { coinId: 'ethereum', symbol: 'ETH', price: 3455.123, changePercent24h: 1.5, at };
/** GET /api/coins/ethereum/price, which the selector polled every 10 s on its own: an older figure. */
const coinPrice = { coinId: 'ethereum', symbol: 'ETH', price: 3401.5, changePercent24h: -0.5, at: '2026-11-22T11:59:55.000Z' };

const text = (html: string, testId: string) => {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html);
  if (!match) throw new Error(`${testId} not rendered`);
  return match[1];
};

describe('dashboard: one live price for the coin selector and the price card', function () {
  this.timeout(60_000);

  it('shows the same price and 24 h change in the selector and the Current Price card', async () => {
    const html = await screenHtml({ path: '/', load: () => import('./dashboard'), viewer: viewer('FREE') }, [
      [['/api/price', 'ETH'], polled],
      [['/api/coins/{coinId}/price', 'ethereum'], coinPrice],
    ]);
    expect(text(html, 'price-value')).to.equal('$3,455.12');
    expect(text(html, 'coin-selector-price')).to.equal(text(html, 'price-value'));
    expect(text(html, 'coin-selector-change')).to.equal('+1.50%');
    expect(text(html, 'price-change')).to.equal('+1.50%');
  });
});
