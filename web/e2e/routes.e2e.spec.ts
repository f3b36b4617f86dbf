/** The route table, the shell and the Portfolio Summary, in real Chromium against the embedded app. */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { portfolioResponseSchema, type PortfolioResponse } from '@papertrade/domain/trading/read-contracts';
import type { StartedApp } from '../../test/app-process';
import { screenshot, useBrowserSuite } from './support/browser';

/** Built screens (their own specs test them): here only their route and title. */
const built = [
  ['/trade-history', 'Trade History'],
  ['/risk-management', 'Risk Management'],
  ['/subscription', 'Subscription and Billing'],
  ['/admin', 'Admin Panel'],
  ['/api-docs', 'API Reference'],
  ['/settings', 'Settings'],
  ['/api-integration', 'Exchange API Integration'],
  ['/backtesting', 'Strategy Backtesting'],
  ['/ai-signals', 'AI Trading Strategies'],
] as const;

describe('web: routes and shell (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite();
  let app: StartedApp;
  let browser: Browser;
  let page: Page;

  beforeEach(() => ({ app, browser, page } = suite));

  const sidebar = () => page.getByRole('navigation', { name: 'Main navigation' });
  const h1 = () => page.getByRole('heading', { level: 1 });

  it('/ shows the dashboard title and subtitle inside the shell; /dashboard is an alias', async () => {
    for (const path of ['/', '/dashboard']) {
      await page.goto(path);
      await h1().waitFor();
      expect(await h1().textContent()).to.equal('Multi-Coin Trading Dashboard');
      expect(await page.getByText('Real-time analysis and AI-powered insights').count()).to.equal(1);
      expect(await sidebar().isVisible()).to.equal(true);
      expect(new URL(page.url()).pathname).to.equal(path);
      expect(await sidebar().getByRole('link', { name: 'Dashboard' }).getAttribute('class')).to.include('sidebar__link--active');
    }
    await screenshot(page, 'dashboard');
  });

  it('every screen of the premium spec has its route inside the shell, built (no placeholder left)', async () => {
    for (const [path, title] of built) {
      const response = await page.goto(path);
      // The server must give index.html to every non-API path (only /api/* is the API).
      expect(response?.status(), `GET ${path} must serve the web app`).to.equal(200);
      await h1().filter({ hasText: title }).waitFor();
      expect(await page.getByTestId('placeholder-screen').count(), path).to.equal(0);
    }
  });

  it('the sidebar entries navigate to their routes', async () => {
    await page.goto('/');
    await sidebar().waitFor();
    for (const [label, path] of [
      ['AI Signals', '/ai-signals'],
      ['Trade History', '/trade-history'],
      ['Backtesting', '/backtesting'],
      ['Risk Management', '/risk-management'],
      ['API Integration', '/api-integration'],
      ['Subscription', '/subscription'],
      ['Settings', '/settings'],
      ['Dashboard', '/'],
    ] as const) {
      await sidebar().getByRole('link', { name: label }).click();
      await page.waitForURL((url) => url.pathname === path);
      await h1().waitFor();
    }
  });

  it('/landing, /login and /signup render without the sidebar', async () => {
    for (const [path, name] of [
      ['/landing', 'landing-top'],
      ['/login', 'login'],
      ['/signup', 'signup'],
    ] as const) {
      await page.goto(path);
      await h1().waitFor();
      expect(await sidebar().count(), path).to.equal(0);
      await screenshot(page, name);
    }
  });

  it("any other path shows 'Page Not Found' with a developer hint, inside the shell", async () => {
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    expect(await h1().textContent()).to.equal('Page Not Found');
    expect(await page.getByTestId('not-found').textContent()).to.include('/no/such/page');
    expect(await page.getByTestId('not-found').textContent()).to.include('router');
    expect(await sidebar().isVisible()).to.equal(true);
    await screenshot(page, 'not-found');
  });

  it("the login page's Forgot password? link lands on the 404 page; its sign-up link goes to /signup", async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByText('Page Not Found').waitFor();

    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.waitForURL('**/signup');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL('**/login');
  });

  it('Portfolio Summary shows dashes, never invented numbers, while GET /api/portfolio fails', async () => {
    await page.route('**/api/portfolio', (route) =>
      route.fulfill({ status: 404, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Not Found', status: 404, detail: 'No such endpoint' }) }),
    );
    const answered = page.waitForResponse('**/api/portfolio');
    await page.goto('/');
    const summary = page.getByTestId('portfolio-summary');
    await summary.waitFor();
    await answered;
    expect(await summary.getByTestId('portfolio-total-value').textContent()).to.equal('—');
    expect(await summary.getByTestId('portfolio-daily-pnl').textContent()).to.equal('—');
    expect(await summary.getByTestId('portfolio-eth-holdings').textContent()).to.equal('—');
    expect((await summary.locator('dd').allTextContents()).join('')).not.to.match(/\d/);
    expect(await page.getByTestId('toast').count()).to.equal(0);
  });

  it('Portfolio Summary formats the portfolio: dollars, signed P&L with percent, up/down colours, ETH to 4 decimals', async () => {
    // A whole answer of the read contract (checked here, so the stub cannot drift from it) with the three figures shown.
    const portfolio = (figures: Pick<PortfolioResponse, 'totalValue' | 'dailyPnL' | 'ethHoldings'>): PortfolioResponse =>
      portfolioResponseSchema.parse({
        demo: false,
        startingCash: 10000,
        cash: figures.totalValue,
        positionsValue: 0,
        dailyPnLPercent: 0,
        realisedPnlToday: 0,
        totalPnl: 0,
        totalPnlPercent: 0,
        realisedPnl: 0,
        unrealisedPnl: 0,
        latestPrice: { symbol: 'ETH', price: 3000, change24h: null, changePercent24h: null },
        signalCounts: { total: 0, buy: 0, sell: 0, hold: 0 },
        positions: [],
        valuedAt: new Date().toISOString(),
        ...figures,
      });
    let answer = portfolio({ totalValue: 10234.5, dailyPnL: -42.1, ethHoldings: 1.23456 });
    await page.route('**/api/portfolio', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) }));
    await page.goto('/');
    const summary = page.getByTestId('portfolio-summary');
    await summary.getByTestId('portfolio-total-value').filter({ hasText: '$10,234.50' }).waitFor();
    const pnl = summary.getByTestId('portfolio-daily-pnl');
    expect(await pnl.textContent()).to.equal('-$42.10 (-0.41%)');
    expect(await pnl.getAttribute('class')).to.include('down');
    expect(await summary.getByTestId('portfolio-eth-holdings').textContent()).to.equal('1.2346 ETH');
    await screenshot(page, 'portfolio-summary');

    // Polled every 10 s: the next answer shows without a reload.
    answer = portfolio({ totalValue: 0, dailyPnL: 5, ethHoldings: 0 });
    await pnl.filter({ hasText: '+$5.00 (0.00%)' }).waitFor({ timeout: 15_000 });
    expect(await pnl.getAttribute('class')).to.include('up');
  });

  it('a failing GET /api/ml-status breaks nothing and shows no toast', async () => {
    let calls = 0;
    await page.route('**/api/ml-status', (route) => {
      calls += 1;
      return route.fulfill({ status: 500, body: 'boom' });
    });
    const failed = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/ml-status');
    await page.goto('/');
    await h1().waitFor();
    await failed;
    // The page has had the failure and rendered twice since: a toast for it would be on screen now.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(calls).to.be.at.least(1);
    expect(await page.getByTestId('toast').count()).to.equal(0);
    expect(await h1().textContent()).to.equal('Multi-Coin Trading Dashboard');
  });
});
