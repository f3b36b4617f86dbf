/**
 * The main dashboard in real Chromium against the embedded app (simulated market, live ticks over
 * /ws): live data for a visitor, the coin selector (search, keyboard, switching coins), the section 8
 * error texts, the socket's authentication, 'Live Data' then 'Disconnected' when the server goes
 * away, and screenshots at 1280 and 390 px.
 */
import { expect } from 'chai';
import type { Page, WebSocket as PageSocket } from 'playwright-core';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { getViaApi, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { screenshot, useBrowserSuite } from './support/browser';

/** `$3,123.45` -> 3123.45 */
function dollars(text: string | null): number {
  const match = /^\$([\d,]+\.\d{2})$/.exec((text ?? '').trim());
  if (!match) throw new Error(`not a dollar amount: ${JSON.stringify(text)}`);
  return Number(match[1]!.replace(/,/g, ''));
}

describe('web: main dashboard (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();
  let app: StartedApp;
  let page: Page;

  beforeEach(() => ({ app, page } = suite));

  const priceCard = () => page.getByTestId('price-card');
  const status = () => page.getByTestId('connection-status');
  const dialog = () => page.getByTestId('coin-dialog');
  const trigger = () => page.getByTestId('coin-selector-trigger');

  /** Waits until the price card shows a dollar amount for `pair`, and returns it. */
  async function shownPrice(pair: string): Promise<number> {
    await priceCard().getByTestId('price-pair').filter({ hasText: pair }).waitFor();
    await page.waitForFunction(() => /^\$[\d,]+\.\d{2}$/.test(document.querySelector('[data-testid="price-value"]')?.textContent ?? ''));
    return dollars(await priceCard().getByTestId('price-value').textContent());
  }

  it('shows a visitor live data: ETH/USD at the server price, the signal cards, the signals and indicators panels, Live Data', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Multi-Coin Trading Dashboard' }).waitFor();
    expect(await page.getByText('Real-time analysis and AI-powered insights').count()).to.equal(1);
    await status().filter({ hasText: 'Live Data' }).waitFor();
    expect(await page.getByRole('link', { name: 'Login to control trading' }).getAttribute('href')).to.equal('/login');

    const shown = await shownPrice('ETH/USD');
    const server = (await getViaApi(app.url, '/api/price?symbol=ETH')) as { price: number };
    // The simulated market moves between the two reads: same price to within a percent.
    expect(Math.abs(shown - server.price) / server.price).to.be.below(0.01);
    expect(await priceCard().getByTestId('price-change').textContent()).to.match(/^[+-]?\d+\.\d{2}% 24h$|^0\.00% 24h$/);

    // Signals: the panel lists the server's latest ETH signals with their reasons, or says there are none.
    const signals = (await getViaApi(app.url, '/api/signals?symbol=ETH')) as { signals: Array<{ type: string; confidence: number }>; counts: { total: number; buy: number; sell: number; hold: number } };
    const panel = page.getByTestId('signals-panel');
    if (signals.signals.length === 0) {
      await panel.getByText('No recent signals available', { exact: true }).waitFor();
      expect(await page.getByTestId('ai-confidence-note').textContent()).to.include('No ETH signal yet');
    } else {
      await panel.getByTestId('signal-item').first().waitFor();
      expect(await panel.getByTestId('signal-reason').count()).to.be.greaterThan(0);
      expect(await page.getByTestId('ai-confidence-note').textContent()).to.include('from the latest ETH signal');
      // How the confidence follows from the reasons: the score and the confidence arithmetic, each reason's weight.
      const explanation = panel.getByTestId('signal-explanation').first();
      expect(await explanation.textContent()).to.match(/score = \(.*\) \/ \d+ = [+−]\d\.\d{2}/);
      expect(await panel.getByTestId('signal-explanation-confidence').first().textContent()).to.match(/^confidence/);
      expect(await panel.getByTestId('signal-reason-weight').first().textContent()).to.match(/^×\d+ → (?:[+−]\d+|0)$/);
    }
    const counts = signals.counts;
    await page.getByTestId('active-signals-total').filter({ hasText: String(counts.total) }).waitFor();

    // Indicators: every label is one of the section 9 words (or a dash while history is short).
    const indicators = page.getByTestId('indicators-panel');
    await indicators.getByTestId('indicator-rsi-label').waitFor();
    expect(await indicators.getByTestId('indicator-rsi-label').textContent()).to.be.oneOf(['Oversold', 'Overbought', 'Neutral', '—']);
    expect(await indicators.getByTestId('indicator-macd-label').textContent()).to.be.oneOf(['Bullish', 'Bearish', '—']);
    expect(await indicators.getByTestId('indicator-ma-label').textContent()).to.be.oneOf(['Above MA', 'Below MA', '—']);
    expect(await indicators.getByTestId('indicator-volume-label').textContent()).to.be.oneOf(['Above average', 'Below average', 'Average', '—']);
    // The MACD bar: MACD in basis points of the price, the width min(100, |bp| x 2) percent, said in its tooltip.
    const tooltip = (await indicators.getByTestId('macd-bar-track').getAttribute('title')) ?? '';
    const bp = /is (-?[\d,.]+) bp of the price/.exec(tooltip);
    if (bp) {
      const width = Number.parseFloat((await indicators.getByTestId('macd-bar').getAttribute('style'))!.replace(/^.*width:\s*/, ''));
      expect(width).to.be.closeTo(Math.min(100, Math.abs(Number(bp[1]!.replace(/,/g, ''))) * 2), 0.02);
    } else expect(tooltip).to.include('no MACD yet');

    // The paper-trading and ML places are there.
    // Recent trades: the house demo bot's (paper-trading.e2e.spec.ts checks them), or none yet.
    const demoTrades = (await getViaApi(app.url, '/api/trades')) as { trades: unknown[] };
    if (demoTrades.trades.length === 0) await page.getByTestId('recent-trades-panel').getByText('No recent trades', { exact: true }).waitFor();
    else await page.getByTestId('recent-trades-panel').getByTestId('trade-item').first().waitFor();
    // The ML panel: the house model's last training, 'Never' until its first training (the workers' job at start) ends.
    await page.getByTestId('ml-last-update').filter({ hasText: /^(Never|[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M)$/ }).waitFor();
    expect(await page.getByTestId('bot-status').textContent()).to.equal('STOPPED');
    await page.getByTestId('chat-button').click();
    await page.getByTestId('chat-window').waitFor();
    await page.getByTestId('chat-button').click();
    expect(await page.getByTestId('chat-window').count()).to.equal(0);
  });

  // Polls (5 s) and ticks both move it; the tick path alone is covered by the live-price and realtime unit specs.
  it('the price card moves with the market without a reload', async () => {
    await page.goto('/');
    const first = await shownPrice('ETH/USD');
    // Ticks arrive every few seconds; the shown price changes without a reload.
    await page.waitForFunction(
      (before) => {
        const text = document.querySelector('[data-testid="price-value"]')?.textContent ?? '';
        return /^\$[\d,]+\.\d{2}$/.test(text) && Number(text.replace(/[$,]/g, '')) !== before;
      },
      first,
      { timeout: 30_000 },
    );
  });

  it('the coin selector: focus moves in and is trapped, search filters, No coins found, Escape closes and returns focus', async () => {
    await page.goto('/');
    await status().filter({ hasText: 'Live Data' }).waitFor();
    await trigger().click();
    await dialog().getByRole('heading', { name: 'Select Cryptocurrency' }).waitFor();
    const search = dialog().getByPlaceholder('Search coins...');
    expect(await search.evaluate((el) => el === document.activeElement)).to.equal(true);

    await dialog().getByTestId('coin-option-solana').waitFor();
    expect(await dialog().getByTestId('coin-list').locator('li').count()).to.equal(10);
    const popular = dialog().getByRole('group', { name: 'Popular' }).getByRole('button');
    expect(await popular.allTextContents()).to.deep.equal(['BTC', 'ETH', 'BNB', 'ADA', 'SOL']);
    // Prices from /api/coins/prices show in the list.
    await page.waitForFunction(() => /\$[\d,]+\.\d{2}/.test(document.querySelector('[data-testid="coin-option-solana"]')?.textContent ?? ''));

    // Tab and Shift+Tab never leave the dialog.
    for (let i = 0; i < 20; i += 1) {
      await page.keyboard.press(i < 14 ? 'Tab' : 'Shift+Tab');
      expect(await dialog().evaluate((el) => el.contains(document.activeElement)), `after Tab #${i + 1}`).to.equal(true);
    }

    await search.fill('sol');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="coin-list"] li').length === 1);
    expect(await dialog().getByTestId('coin-list').textContent()).to.include('Solana');
    await search.fill('zzz');
    await dialog().getByText('No coins found', { exact: true }).waitFor();
    expect(await dialog().getByTestId('coin-list').locator('li').count()).to.equal(0);
    await screenshot(page, 'dashboard-coin-selector-empty');

    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !(document.querySelector('[data-testid="coin-dialog"]') as HTMLDialogElement).open);
    expect(await trigger().evaluate((el) => el === document.activeElement)).to.equal(true);
    // Reopened, the search starts empty again.
    await trigger().click();
    expect(await dialog().getByPlaceholder('Search coins...').inputValue()).to.equal('');
  });

  it('choosing a coin switches the cards and panels to it (BTC/USD)', async () => {
    await page.goto('/');
    const eth = await shownPrice('ETH/USD');
    await trigger().click();
    await dialog().getByPlaceholder('Search coins...').fill('bit');
    const asked = page.waitForRequest((req) => req.url().includes('/api/price?symbol=BTC'));
    await dialog().getByTestId('coin-option-bitcoin').click();
    await asked;
    const btc = await shownPrice('BTC/USD');
    expect(btc).to.not.equal(eth);
    const server = (await getViaApi(app.url, '/api/price?symbol=BTC')) as { price: number };
    expect(Math.abs(btc - server.price) / server.price).to.be.below(0.01);
    await trigger().filter({ hasText: 'BTC' }).waitFor();
    await page.getByTestId('signals-panel').locator('.badge').filter({ hasText: 'BTC' }).waitFor();
    await page.waitForRequest((req) => req.url().includes('/api/indicators?symbol=BTC'));
    expect(await page.getByTestId('ai-confidence-note').textContent()).to.include('BTC');
    // The Popular row selects too.
    await trigger().click();
    await dialog().getByRole('group', { name: 'Popular' }).getByRole('button', { name: 'SOL' }).click();
    await shownPrice('SOL/USD');
  });

  it("shows the section 8 texts when reads fail ('Failed to fetch price', 'Failed to fetch signals', 'Failed to fetch indicators')", async () => {
    const fail = (route: import('playwright-core').Route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'market offline' });
    await page.route('**/api/price?**', fail);
    await page.route('**/api/signals?**', fail);
    await page.route('**/api/indicators?**', fail);
    await page.routeWebSocket('**/ws', () => undefined);
    await page.goto('/');
    await priceCard().getByText('Failed to fetch price', { exact: true }).waitFor();
    await page.getByTestId('signals-panel').getByText('Failed to fetch signals', { exact: true }).waitFor();
    await page.getByTestId('indicators-panel').getByText('Failed to fetch indicators', { exact: true }).waitFor();
    expect(await priceCard().getByTestId('fetch-error').textContent()).to.include('503: market offline');
    expect(await priceCard().getByTestId('price-value').textContent()).to.equal('—');
  });

  it('a signed-in socket authenticates with its first message, never in the URL', async () => {
    const user = uniqueUser('dash');
    await signUpViaApi(app.url, user);
    const token = await logInViaApi(app.url, user.email, user.password);
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    const socket = new Promise<{ ws: PageSocket; first: string; received: string[] }>((resolve) => {
      page.on('websocket', (ws) => {
        const received: string[] = [];
        ws.on('framereceived', (frame) => received.push(String(frame.payload)));
        ws.once('framesent', (frame) => resolve({ ws, first: String(frame.payload), received }));
      });
    });
    await page.goto('/');
    const { ws, first, received } = await socket;
    expect(new URL(ws.url()).pathname).to.equal('/ws');
    expect(ws.url()).not.to.include(token);
    expect(JSON.parse(first)).to.deep.equal({ type: 'auth', token });
    await status().filter({ hasText: 'Live Data' }).waitFor();
    await waitUntil(() => received.some((m) => (JSON.parse(m) as { type: string }).type === 'AUTHENTICATED'), { message: 'AUTHENTICATED' });
    expect(await page.getByRole('link', { name: 'Login to control trading' }).count()).to.equal(0);
  });

  it('is usable at 390 px wide without horizontal scrolling; screenshots at 1280 and 390 px', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await shownPrice('ETH/USD');
    await page.getByTestId('indicator-rsi-label').waitFor();
    await screenshot(page, 'dashboard-1280', { fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await shownPrice('ETH/USD');
    await page.getByTestId('indicator-rsi-label').waitFor();
    const overflow = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(overflow.scroll, 'page wider than the viewport').to.be.at.most(overflow.client);
    await screenshot(page, 'dashboard-390', { fullPage: true });
    await trigger().click();
    await dialog().getByTestId('coin-option-solana').waitFor();
    const box = await dialog().boundingBox();
    expect(box!.x).to.be.at.least(0);
    expect(box!.x + box!.width).to.be.at.most(390);
    await screenshot(page, 'dashboard-390-coin-selector');
  });

  // Last: it stops the suite's app.
  it("reads 'Live Data' while connected and 'Disconnected' once the server process has gone", async () => {
    await page.goto('/');
    await status().filter({ hasText: 'Live Data' }).waitFor();
    expect(await status().getAttribute('data-status')).to.equal('connected');
    await app.stop();
    await status().filter({ hasText: 'Disconnected' }).waitFor({ timeout: 10_000 });
    // It keeps retrying every 3 s while the server is away, and stays Disconnected.
    const attempts: string[] = [];
    page.on('websocket', (ws) => attempts.push(ws.url()));
    await waitUntil(() => attempts.length >= 2, { timeoutMs: 10_000, message: 'two reconnection attempts' });
    expect(await status().textContent()).to.equal('Disconnected');
    await screenshot(page, 'dashboard-disconnected');
  });
});
