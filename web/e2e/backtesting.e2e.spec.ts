/**
 * Strategy Backtesting (/backtesting, issue 18) in real Chromium against the embedded app, whose
 * workers run the backtests as long jobs through the engine over the simulated market:
 * - a visitor: 'Login Required' with a link to /login;
 * - a free user: 'Premium Required' with a link to /subscription, the strategy list and the form
 *   (parameters with the strategy's min and max), Run disabled, Results and History premium-only;
 * - a premium user: the defaults (ETH, 10000, the last 6 months to today), Run disabled with no
 *   strategy ('Strategy Required: Please select a trading strategy' on Enter) and for an out-of-bounds
 *   parameter, a run with its progress, 'Backtest Completed' with the trade count and win rate, then
 *   Results (the metrics as the API states them, the equity and drawdown chart, the trades paged, the
 *   comparison with paper trading), History (its row opens its Results), and the walk-forward view;
 * - a refused run: 'Backtest Failed' with the server's message;
 * - keyboard: the tabs, the strategy radio group and Run work without a mouse; no serious axe
 *   violation on any tab.
 * Premium is granted as an administrator would, through PUT /api/admin/users/{id}.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { backtestDetailSchema, backtestTradesPageSchema } from '@papertrade/domain/backtest/service-contracts';
import type { StartedApp } from '../../test/app-process';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { seriousViolations } from './support/axe';
import { expectToast, screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'backtest-admin@papertrade.test', password: 'admin-password-1' };
/** A run over a few weeks of the simulated market: its job takes seconds on a busy machine. */
const RUN_BOUND_MS = 120_000;

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
function daysAgo(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() - days);
  return localDay(d);
}

describe('web: strategy backtesting (e2e)', function () {
  this.timeout(300_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  let app: StartedApp;
  let page: Page;
  beforeEach(() => ({ app, page } = suite));

  async function account(prefix: string, premium: boolean): Promise<string> {
    const user = uniqueUser(prefix);
    const { userId } = await signUpViaApi(app.url, user);
    if (premium) {
      const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
      await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    }
    return logInViaApi(app.url, user.email, user.password);
  }

  async function arrive(token: string | null, path: string) {
    await page.goto('/landing');
    await page.evaluate((t) => (t ? localStorage.setItem('authToken', t) : localStorage.removeItem('authToken')), token);
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: 'Strategy Backtesting' }).waitFor();
  }

  const tab = (name: string) => page.getByRole('tab', { name });
  /** Waits until this tab is the selected one (the address changes, then the screen). */
  const selected = (name: string) => page.getByRole('tab', { name, selected: true }).waitFor();
  /**
   * Axe on the page without a toast: the shared toaster's <li role="status"> breaks axe's list rule
   * (an <ol> may hold only list items), a finding of its own outside this screen (reported).
   */
  async function axe(label: string): Promise<string[]> {
    const close = page.getByRole('button', { name: 'Close notification' });
    while ((await close.count()) > 0) await close.first().click();
    await page.getByTestId('toast').waitFor({ state: 'detached' });
    return seriousViolations(page, label);
  }
  const runButton = () => page.getByTestId('run-backtest');
  const strategyRadio = (id: string) => page.getByTestId(`strategy-${id}`).getByRole('radio');

  it("a visitor sees 'Login Required' with a link to /login", async () => {
    await arrive(null, '/backtesting');
    const prompt = page.getByTestId('backtest-login-required');
    await prompt.getByRole('heading', { name: 'Login Required' }).waitFor();
    expect(await prompt.getByRole('link', { name: 'Login' }).getAttribute('href')).to.equal('/login');
    expect(await page.getByRole('tablist').count()).to.equal(0);
    await screenshot(page, 'backtesting-visitor');
    await prompt.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL('**/login');
  });

  it("a free user sees 'Premium Required', the strategies and the form with Run disabled, and no history", async () => {
    const token = await account('btfree', false);
    await arrive(token, '/backtesting');
    const notice = page.getByTestId('backtest-premium-required');
    await notice.getByRole('heading', { name: 'Premium Required' }).waitFor();
    expect(await notice.getByRole('link', { name: 'Upgrade to Premium' }).getAttribute('href')).to.equal('/subscription');
    await page.getByTestId('backtest-strategies').getByRole('radio').first().waitFor();
    const names = await page.locator('.bt-strategy__name').allTextContents();
    expect(names).to.deep.equal(['RSI Mean Reversion', 'Moving Average Crossover', 'MACD Momentum', 'House Signal Rules']);
    expect(await runButton().isDisabled()).to.equal(true);
    await strategyRadio('macd-momentum').check();
    const fast = page.getByTestId('backtest-param-fastPeriod');
    expect([await fast.getAttribute('min'), await fast.getAttribute('max'), await fast.inputValue()]).to.deep.equal(['2', '50', '12']);
    // A strategy chosen, and still no run for a free user.
    expect(await runButton().isDisabled()).to.equal(true);
    await screenshot(page, 'backtesting-free');
    await tab('History').click();
    await page.getByTestId('backtest-history-premium').getByRole('heading', { name: 'Premium Required' }).waitFor();
    await tab('Results').click();
    await page.getByTestId('backtest-results-premium').waitFor();
    expect(await axe('free results')).to.deep.equal([]);
  });

  it('a premium user runs a backtest: defaults, disabled states, progress, the toast, Results, History', async () => {
    const token = await account('btprem', true);
    await arrive(token, '/backtesting');
    await page.getByTestId('backtest-strategies').getByRole('radio').first().waitFor();
    expect(await page.getByTestId('backtest-premium-required').count()).to.equal(0);
    await selected('Run Backtest');
    // The defaults: ETH, 10000, the last 6 months to today.
    expect(await page.getByTestId('backtest-symbol').inputValue()).to.equal('ETH');
    expect(await page.getByTestId('backtest-capital').inputValue()).to.equal('10000');
    const today = localDay(new Date());
    expect(await page.getByTestId('backtest-end').inputValue()).to.equal(today);
    const sixMonths = new Date();
    sixMonths.setMonth(sixMonths.getMonth() - 6);
    expect(await page.getByTestId('backtest-start').inputValue()).to.satisfy((v: string) => v === localDay(sixMonths) || v.slice(0, 7) === localDay(sixMonths).slice(0, 7));
    // No strategy: Run disabled, and Enter says why.
    expect(await runButton().isDisabled()).to.equal(true);
    await page.getByTestId('backtest-capital').press('Enter');
    const required = await expectToast(page, 'Strategy Required', 'Please select a trading strategy');
    expect(required.variant).to.equal('destructive');
    await screenshot(page, 'backtesting-premium-no-strategy');

    await strategyRadio('rsi-mean-reversion').check();
    const period = page.getByTestId('backtest-param-rsiPeriod');
    expect([await period.getAttribute('min'), await period.getAttribute('max'), await period.inputValue()]).to.deep.equal(['2', '50', '14']);
    // Out of its bounds: the field says so and Run is disabled; back in bounds, Run is usable.
    await period.fill('51');
    await page.getByText('Must be between 2 and 50').waitFor();
    expect(await runButton().isDisabled()).to.equal(true);
    await period.fill('14');
    expect(await runButton().isDisabled()).to.equal(false);

    // A few weeks, so the job ends soon even on a busy machine.
    await page.getByTestId('backtest-start').fill(daysAgo(21));
    // A few weeks run in well under a second: the screen's reads of the run are held until the
    // running state has been seen (the screen ends a run only on what GET /api/backtest/{id} says).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const runRead = /\/api\/backtest\/[0-9a-f-]{36}$/;
    await page.route(runRead, async (route) => {
      await held;
      // Unrouted meanwhile, Playwright may have let the request go on already: nothing left to do.
      await route.continue().catch(() => undefined);
    });
    await runButton().click();
    // While it runs: Run disabled, the queue place or the progress bar.
    await page.getByTestId('backtest-progress').waitFor();
    expect(await runButton().isDisabled()).to.equal(true);
    expect(await runButton().textContent()).to.equal('Running...');
    expect(await page.getByTestId('backtest-progress-text').textContent()).to.match(/^(Queued( \(\d+(st|nd|rd|th) in line\))?|Running \d{1,3}%)$/);
    await screenshot(page, 'backtesting-running');
    release();
    await page.unroute(runRead);

    const done = page.getByTestId('toast').filter({ hasText: 'Backtest Completed' });
    await done.waitFor({ timeout: RUN_BOUND_MS });
    const description = (await done.getByTestId('toast-description').textContent())!;
    expect(description).to.match(/^\d+ trades?, \d{1,3}\.\d\d% win rate$/);

    // Then Results, on that run, with the figures the API states.
    await page.getByTestId('backtest-results').waitFor();
    await selected('Results');
    const id = new URL(page.url()).searchParams.get('id')!;
    expect(await page.getByTestId('backtest-results').getAttribute('data-id')).to.equal(id);
    const detail = backtestDetailSchema.parse(await callAs(app.url, token, 'GET', `/api/backtest/${id}`));
    const result = detail.result!;
    expect(description).to.equal(`${result.totalTrades} trade${result.totalTrades === 1 ? '' : 's'}, ${(result.winRate * 100).toFixed(2)}% win rate`);
    expect(await page.getByTestId('metric-totalTrades').textContent()).to.equal(String(result.totalTrades));
    const signedPct = (f: number) => `${f > 0 ? '+' : f < 0 ? '-' : ''}${Math.abs(f * 100).toFixed(2)}%`;
    expect(await page.getByTestId('metric-totalReturn').textContent()).to.equal((result.totalReturn * 100).toFixed(2) === '0.00' || (result.totalReturn * 100).toFixed(2) === '-0.00' ? '0.00%' : signedPct(result.totalReturn));
    expect(await page.getByTestId('metric-maxDrawdown').textContent()).to.equal(`${(result.maxDrawdown * 100).toFixed(2)}%`);
    expect(await page.getByTestId('metric-finalBalance').textContent()).to.equal(`$${result.finalBalance.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);
    // The chart: the equity line and the drawdown below it.
    await page.getByTestId('equity-path').waitFor();
    await page.getByTestId('drawdown').waitFor();
    // The trades, paged by the server.
    const trades = backtestTradesPageSchema.parse(await callAs(app.url, token, 'GET', `/api/backtest/${id}/trades?page=1&pageSize=25`));
    if (trades.total === 0) await page.getByTestId('backtest-no-trades').waitFor();
    else {
      await page.getByTestId('backtest-trade-row').first().waitFor();
      expect(await page.getByTestId('backtest-trade-row').count()).to.equal(Math.min(25, trades.total));
      expect(await page.getByTestId('backtest-trades-pager').textContent()).to.contain(`${trades.total} fill`);
    }
    // The comparison with paper trading (this user's bot never ran: every backtest trade is missing in paper).
    await page.getByTestId('compare-paper-button').click();
    await page.getByTestId('compare-paper-summary').waitFor();
    expect(await page.getByTestId('compare-paper-summary').textContent()).to.match(/\d+ backtest trades?, 0 paper trades, 0 matched to the cent\./);
    const listed = await page.getByTestId('compare-paper-difference').count();
    if ((await page.getByTestId('compare-paper-show-all').count()) > 0) {
      expect(listed).to.equal(10);
      await page.getByTestId('compare-paper-show-all').click();
      expect(await page.getByTestId('compare-paper-difference').count()).to.be.greaterThan(10);
      await page.getByTestId('compare-paper-show-all').click();
    }
    await page.getByTestId('backtest-results').scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'backtesting-results');
    await page.getByTestId('backtest-trades').scrollIntoViewIfNeeded();
    await screenshot(page, 'backtesting-trades');
    await page.getByTestId('backtest-compare-paper').scrollIntoViewIfNeeded();
    await screenshot(page, 'backtesting-compare-paper');
    expect(await axe('results')).to.deep.equal([]);

    // History lists it; a click opens its Results.
    await tab('History').click();
    const row = page.locator(`[data-testid="backtest-history-row"][data-id="${id}"]`);
    await row.waitFor();
    expect(await row.getByTestId('backtest-history-status').textContent()).to.equal('Completed');
    await screenshot(page, 'backtesting-history');
    expect(await axe('history')).to.deep.equal([]);
    await row.click();
    await page.locator(`[data-testid="backtest-results"][data-id="${id}"]`).waitFor();
    await selected('Results');
  });

  it("a refused run reads 'Backtest Failed' with the server's message, and the walk-forward view reports each window", async () => {
    const token = await account('btfail', true);
    await arrive(token, '/backtesting');
    await strategyRadio('ma-crossover').check();
    // Each within its own bounds, but the fast average must be shorter than the slow one: the server says so.
    await page.getByTestId('backtest-param-fastPeriod').fill('60');
    await page.getByTestId('backtest-param-slowPeriod').fill('30');
    await page.getByTestId('backtest-start').fill(daysAgo(14));
    await runButton().click();
    const failed = await expectToast(page, 'Backtest Failed');
    expect(failed.description).to.equal('parameters.fastPeriod must be less than parameters.slowPeriod');
    expect(failed.variant).to.equal('destructive');
    expect(await runButton().isDisabled()).to.equal(false);
    await screenshot(page, 'backtesting-failed');

    // A valid run, then a walk-forward over its settings from its Results.
    await page.getByTestId('backtest-param-fastPeriod').fill('10');
    await runButton().click();
    await page.getByTestId('toast').filter({ hasText: 'Backtest Completed' }).waitFor({ timeout: RUN_BOUND_MS });
    await page.getByTestId('walk-forward-form').waitFor();
    await page.getByTestId('wf-windows').fill('2');
    await page.getByTestId('wf-sets').fill('4');
    await page.getByTestId('wf-objective').selectOption('totalReturn');
    await page.getByTestId('run-walk-forward').click();
    await page.getByTestId('walk-forward-report').waitFor({ timeout: RUN_BOUND_MS });
    expect(await page.getByTestId('walk-forward-window').count()).to.equal(2);
    expect(await page.getByTestId('walk-forward-summary').locator('tbody tr').count()).to.equal(5);
    await page.getByTestId('walk-forward-chart').locator('[data-testid="equity-path"]').waitFor();
    expect(await page.getByTestId('walk-forward-window').first().locator('.bt-wf__params').textContent()).to.match(/^fastPeriod \d+ · slowPeriod \d+$/);
    await page.getByTestId('walk-forward-report').scrollIntoViewIfNeeded();
    await screenshot(page, 'backtesting-walk-forward');
    expect(await axe('walk-forward')).to.deep.equal([]);
  });

  it('is operable by keyboard: the tabs, the strategy radio group, the parameters and Run', async () => {
    const token = await account('btkeys', true);
    await arrive(token, '/backtesting');
    await page.getByTestId('backtest-strategies').getByRole('radio').first().waitFor();
    await tab('Run Backtest').focus();
    await page.keyboard.press('ArrowRight');
    await selected('Results');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Results');
    await page.keyboard.press('ArrowRight');
    await selected('History');
    await page.keyboard.press('ArrowRight');
    await selected('Run Backtest');
    await page.getByTestId('backtest-strategies').getByRole('radio').first().waitFor();
    // Into the radio group: Space chooses the focused strategy, the arrows move the choice.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).to.equal('rsi-mean-reversion');
    await page.keyboard.press('Space');
    expect(await strategyRadio('rsi-mean-reversion').isChecked()).to.equal(true);
    await page.keyboard.press('ArrowDown');
    expect(await strategyRadio('ma-crossover').isChecked()).to.equal(true);
    await page.getByTestId('backtest-param-slowPeriod').waitFor();
    await page.getByTestId('backtest-start').fill(daysAgo(7));
    await page.getByTestId('backtest-param-slowPeriod').focus();
    // Enter in a field submits the form (Run is the default button).
    await page.keyboard.press('Enter');
    await page.getByTestId('toast').filter({ hasText: 'Backtest Completed' }).waitFor({ timeout: RUN_BOUND_MS });
    await page.getByTestId('backtest-results').waitFor();
    // The chart is focusable; the arrows move its cursor and say where it is.
    await page.getByTestId('equity-chart').focus();
    await page.keyboard.press('Home');
    await page.getByTestId('equity-chart-tooltip').waitFor();
    expect(await page.getByTestId('equity-chart-tooltip').textContent()).to.match(/UTC: equity \$[\d,]+\.\d\d, drawdown \d+\.\d\d%$/);
    expect(await axe('results after keyboard run')).to.deep.equal([]);
  });
});
