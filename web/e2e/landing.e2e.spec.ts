/** The marketing page in real Chromium against the embedded app: its buttons and its real figures. */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { plansResponseSchema } from '@papertrade/domain/plans/contracts';
import { publicStatsSchema } from '@papertrade/domain/public-stats/contracts';
import { adminStatsSchema } from '@papertrade/domain/admin/contracts';
import type { StartedApp } from '../../test/app-process';
import { placeTradeResponseSchema } from '@papertrade/domain/trading/contracts';
import { waitUntil } from '../../test/wait';
import { callAs, getViaApi, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'landing-admin@papertrade.test', password: 'admin-password-1' };

describe('web: landing page (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  let app: StartedApp;
  let browser: Browser;
  let page: Page;
  let lastPosition: string;

  before(async function () {
    ({ app } = suite);
    for (const prefix of ['trader-a', 'trader-b']) {
      const user = uniqueUser(prefix);
      await signUpViaApi(app.url, user);
      // A simulated trade each, which the landing page's count includes.
      const token = await logInViaApi(app.url, user.email, user.password);
      lastPosition = placeTradeResponseSchema.parse(await callAs(app.url, token, 'POST', '/api/trades', { symbol: 'ETH', type: 'BUY', amount: 0.1 })).position!;
    }
  });

  beforeEach(() => ({ app, browser, page } = suite));

  async function openLanding() {
    await page.goto('/landing');
    await page.getByRole('heading', { level: 1 }).waitFor();
  }

  it('renders without the sidebar, with its sections, and is screenshotted whole', async () => {
    await openLanding();
    await page.locator('.plan-card').first().waitFor();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).to.equal(0);
    expect(await page.getByTestId('testimonial').count()).to.equal(3);
    for (const testimonial of await page.getByTestId('testimonial').all()) {
      expect(await testimonial.textContent()).to.include('Sample testimonial');
    }
    expect(await page.locator('footer').count()).to.equal(1);
    await screenshot(page, 'landing', { fullPage: true });
  });

  for (const [name, locate, expected] of [
    ['Login (navigation)', (p: Page) => p.getByTestId('landing-login'), '/login'],
    ['Get Started (navigation)', (p: Page) => p.getByTestId('landing-get-started'), '/signup'],
    ['Start Free Trial (hero)', (p: Page) => p.getByTestId('hero-start-trial'), '/signup'],
    ['Watch Demo (hero)', (p: Page) => p.getByTestId('hero-watch-demo'), '/'],
    ['the final call to action', (p: Page) => p.getByTestId('final-cta'), '/signup'],
  ] as const) {
    it(`${name} goes to ${expected}`, async () => {
      await openLanding();
      await locate(page).click();
      await page.waitForURL((url) => url.pathname === expected);
      if (expected === '/') await page.getByRole('heading', { name: 'Multi-Coin Trading Dashboard' }).waitFor();
    });
  }

  it('prices the plans from GET /api/plans, Premium marked Most Popular, each plan button to /signup', async () => {
    const plans = plansResponseSchema.parse(await getViaApi(app.url, '/api/plans'));
    await openLanding();
    for (const plan of plans) {
      const card = page.getByTestId(`plan-${plan.id}`);
      await card.waitFor();
      const text = (await card.textContent()) ?? '';
      expect(text).to.include(plan.name);
      expect(text).to.include(`$${plan.priceUsdPerMonth}/month`);
      for (const feature of plan.features) expect(text).to.include(feature);
      expect(text.includes('Most Popular')).to.equal(plan.mostPopular);
    }
    const names = plans.map((p) => p.name);
    expect(names).to.include.members(['Free Starter', 'Premium Pro']);
    expect(plans.find((p) => p.name === 'Free Starter')?.priceUsdPerMonth).to.equal(0);
    expect(plans.find((p) => p.name === 'Premium Pro')?.mostPopular).to.equal(true);

    for (const plan of plans) {
      await openLanding();
      await page.getByTestId(`plan-action-${plan.id}`).click();
      await page.waitForURL('**/signup');
    }
  });

  it('shows the real statistics: traders equals the registered users, simulated trades counts every trade', async () => {
    // Read our own writes: the stats must include the two sign-ups and trades of `before`.
    const stats = publicStatsSchema.parse(await getViaApi(app.url, '/api/public/stats', { 'X-Min-Position': lastPosition }));
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    const adminStats = adminStatsSchema.parse(await getViaApi(app.url, '/api/admin/stats', { Authorization: `Bearer ${adminToken}` }));
    expect(stats.traders).to.equal(adminStats.totalUsers);
    expect(stats.traders).to.be.at.least(3); // the admin and the two sign-ups
    expect(stats.simulatedTrades).to.be.at.least(2); // their trades (the house demo bot may have traded too)

    await openLanding();
    await page.getByTestId('stat-traders').filter({ hasText: String(stats.traders) }).waitFor();
    expect(await page.getByTestId('stat-traders').textContent()).to.equal(stats.traders.toLocaleString('en-US'));
    // The house demo bot's trades count too, and it may trade meanwhile: at least what the API said.
    await waitUntil(async () => Number((await page.getByTestId('stat-trades').textContent())?.replace(/,/g, '')) >= stats.simulatedTrades, { message: 'the simulated trades counted' });
    await page.getByText("paper trades, the demo bot's included", { exact: true }).waitFor();
    expect(await page.getByTestId('stat-accuracy').textContent()).to.equal(
      stats.modelAccuracy === null ? 'No data yet' : `${stats.modelAccuracy.toFixed(1)}%`,
    );
    await screenshot(page, 'landing-stats');
  });

  it('shows "No data yet" for a statistic that has not been measured', async () => {
    await page.route('**/api/public/stats', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ traders: 7, modelAccuracy: null, simulatedTrades: 0 }) }),
    );
    await openLanding();
    await page.getByTestId('stat-accuracy').filter({ hasText: 'No data yet' }).waitFor();
    expect(await page.getByTestId('stat-traders').textContent()).to.equal('7');
  });

  it('makes no fabricated claims', async () => {
    await openLanding();
    await page.getByTestId('stat-traders').waitFor();
    const text = (await page.locator('body').textContent()) ?? '';
    for (const claim of ['74.3%', '$2.8M', '15K+', '4.9/5', '2,500+', '15+ indicators', '100ms', '$49']) {
      expect(text, `claim ${claim}`).not.to.include(claim);
    }
  });

  it('has four selectable feature cards; the selected one is highlighted', async () => {
    await openLanding();
    const cards = page.locator('[data-testid^="feature-card-"]');
    expect(await cards.count()).to.equal(4);
    expect((await cards.allTextContents()).join(' ')).to.match(/AI Neural Networks.*Technical Analysis.*Real-Time Signals.*Risk Management/);
    expect(await page.getByTestId('feature-card-ai').getAttribute('aria-pressed')).to.equal('true');
    await page.getByTestId('feature-card-risk').click();
    expect(await page.getByTestId('feature-card-risk').getAttribute('aria-pressed')).to.equal('true');
    expect(await page.getByTestId('feature-card-ai').getAttribute('aria-pressed')).to.equal('false');
    expect(await page.getByTestId('feature-card-risk').getAttribute('class')).to.include('feature-card--selected');
    expect(await page.getByTestId('feature-detail').textContent()).to.include('SIMULATION');
  });
});
