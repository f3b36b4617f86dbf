/**
 * AI Trading Strategies (/ai-signals, issue 19) in real Chromium on the embedded app, every state:
 * - a visitor and a free user see the upsell: the feature list, Upgrade to Premium (a free user goes to
 *   the checkout, a visitor to sign in), Back to Dashboard to /, the current plan (FREE);
 * - a new premium user sees the three cards at the spec's defaults, inactive, figures '—' with 'not
 *   enough trades', 0 active strategies and 0 live signals; toggles one ('Strategy Updated', the count
 *   moves), configures it (the dialog closes on save, 'Configuration Saved', the card shows the new
 *   settings), a refused toggle reads 'Error: Failed to update strategy status'; Retrain (neural only)
 *   trains a neural network with the card's settings and reads 'Model Retrained' when its job ends; Backtest opens with 2024-01-01, 2024-12-31 and 10000, runs through the
 *   engine ('Backtest Completed' with its trades and win rate), the result shows below the cards with
 *   its notes, and the card then says its figures come from the latest backtest; the neural (no model
 *   trained by the period's end: nothing traded, and said) and arbitrage strategies are backtested too;
 * - a premium user whose active strategy has traded (its signals appended while the app was stopped,
 *   as the strategy engine writes them) sees the measured figures, Live Signals naming the strategy
 *   and why, the Performance chart and Analytics comparing the curves.
 * Screenshots of each state go to artifacts/screenshots/ai-strategies-*.png.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { strategyStreamId } from '@papertrade/domain/strategies/strategy';
import { strategyDecider } from '@papertrade/domain/strategies/strategy.decider';
import { configIdOf, configKey, defaultConfiguration } from '@papertrade/domain/strategies/strategy-catalogue';
import { strategySignalDecider, strategySignalsStreamId } from '@papertrade/domain/strategies/strategy-signals';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { createRuntime } from '../../bin/compose';
import { startApp, type StartedApp } from '../../test/app-process';
import { preparePgliteDir } from '../../test/pglite';
import { requireServices } from '../../test/services';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { seriousViolations } from './support/axe';
import { expectToast, launchChromium, screenshot } from './support/browser';
import { ensureWebBuilt } from './support/web-build';
import { waitUntil } from '../../test/wait';

const ADMIN = { email: 'strategies-admin@papertrade.test', password: 'admin-password-1' };
const CANDLE_MS = 300_000;
const ROUND_TRIPS = 22;

describe('web: AI Trading Strategies (e2e)', function () {
  this.timeout(300_000);
  let dataDir: string;
  let app: StartedApp;
  let browser: Browser;
  let page: Page;
  const premium = uniqueUser('stratprem');
  const seeded = uniqueUser('stratseed');
  const free = uniqueUser('stratfree');
  let seededId = '';

  const env = () => ({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, HOUSE_MODEL: 'off' });

  /** The seeded user's technical strategy, active for the last hours, and its round trips as the strategy engine writes them (the app stopped: PGlite is one process's). */
  async function seedSignals(userId: string) {
    const rt = await createRuntime('test', { embedded: true, env: { ...process.env, ...env(), LOG: 'off', DEMO_SEED: 'off' } });
    try {
      const handler = new CommandHandler(rt.infra.eventStore, () => new Date());
      const start = Math.floor(Date.now() / CANDLE_MS) * CANDLE_MS - (2 * ROUND_TRIPS + 4) * CANDLE_MS;
      const at = (i: number) => new Date(start + i * CANDLE_MS).toISOString();
      await handler.handle(strategyDecider, strategyStreamId(userId, 'rsi-technical'), { type: 'ToggleStrategy', data: { userId, strategyId: 'rsi-technical', active: true }, metadata: { now: at(0) } }, { actor: userId, correlationId: 'seed' });
      const configuration = defaultConfiguration('technical');
      const key = configKey('technical', configuration);
      const stream = strategySignalsStreamId(configIdOf(key), 'ETH');
      for (let t = 0; t < ROUND_TRIPS; t++) {
        for (const [i, rsi, previousRsi, close] of [
          [2 * t + 1, 25, 31, 2000],
          [2 * t + 2, 72, 69, t % 3 === 0 ? 1985 : 2030],
        ] as const) {
          const candleTime = at(i);
          await handler.handle(
            strategySignalDecider,
            stream,
            { type: 'EvaluateStrategy', data: { signalId: `${configIdOf(key)}-${candleTime}`, configId: configIdOf(key), configKey: key, symbol: 'ETH', candleTime, inputs: { strategyType: 'technical', configuration, rsi, previousRsi, close } } },
            { actor: 'strategy-engine', correlationId: 'seed' },
          );
        }
      }
    } finally {
      await rt.infra.close();
    }
  }

  async function signIn(user: { email: string; password: string }) {
    const token = await logInViaApi(app.url, user.email, user.password);
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    return token;
  }

  before(async function () {
    await requireServices(this, 'chromium');
    ensureWebBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-strategies-'));
    await preparePgliteDir(path.join(dataDir, 'pglite'));
    app = await startApp({ env: env() });
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    for (const user of [premium, seeded]) {
      const { userId } = await signUpViaApi(app.url, user);
      await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
      if (user === seeded) seededId = userId;
    }
    await signUpViaApi(app.url, free);
    await app.stop();
    await seedSignals(seededId);
    app = await startApp({ env: env() });
    browser = await launchChromium();
  });
  after(async function () {
    await browser?.close();
    await app?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  const h1 = () => page.getByRole('heading', { level: 1 });
  const card = (id: string) => page.getByTestId(`strategy-card-${id}`);

  it('a visitor sees the upsell: features, Upgrade to Premium (to sign in), Back to Dashboard, plan FREE', async () => {
    await page.goto('/ai-signals');
    await page.getByTestId('strategies-upsell').waitFor();
    expect(await h1().textContent()).to.equal('AI Trading Strategies');
    expect(await page.getByTestId('current-plan').textContent()).to.equal('FREE');
    expect(await page.locator('.strategies-upsell__features li').count()).to.equal(6);
    expect(await page.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).to.equal('/');
    await screenshot(page, 'ai-strategies-upsell-visitor');
    await page.getByTestId('upgrade-premium').click();
    await page.waitForURL((url) => url.pathname === '/login');
  });

  it('a free user sees the upsell with their plan; Upgrade to Premium goes to the checkout', async () => {
    await signIn(free);
    await page.goto('/ai-signals');
    await page.getByTestId('strategies-upsell').waitFor();
    expect(await page.getByTestId('current-plan').textContent()).to.equal('FREE');
    expect(await seriousViolations(page, 'strategies upsell')).to.deep.equal([]);
    await screenshot(page, 'ai-strategies-upsell-free');
    await page.getByTestId('upgrade-premium').click();
    await page.waitForURL((url) => url.pathname !== '/ai-signals');
    expect(new URL(page.url()).pathname).to.match(/checkout/);
  });

  it('a new premium user: three cards at the defaults; toggle, configure (the dialog closes), a refused toggle, retrain', async () => {
    await signIn(premium);
    await page.goto('/ai-signals');
    await card('rsi-technical').waitFor();
    expect(await page.getByRole('tab').allTextContents()).to.deep.equal(['Strategy Management', 'Live Signals', 'Analytics']);
    expect(await page.getByTestId('active-count').textContent()).to.equal('0 active strategies');
    expect(await page.getByTestId('signal-count').textContent()).to.equal('0 live signals');
    expect(await card('rsi-technical').getByTestId('strategy-config').textContent()).to.equal('RSI period: 14 · RSI overbought: 70 · Stop loss (%): 2 · Take profit (%): 4');
    expect(await card('neural-network').getByTestId('strategy-config').textContent()).to.equal('Learning rate: 0.001 · Epochs: 100 · Confidence threshold (%): 60');
    expect(await card('cross-exchange-arbitrage').getByTestId('strategy-config').textContent()).to.equal('Minimum spread after fees (%): 0.5 · Max position size (USD): 1000');
    for (const id of ['neural-network', 'rsi-technical', 'cross-exchange-arbitrage']) {
      expect(await card(id).getByTestId('figure-win-rate').textContent()).to.equal('—');
      expect(await card(id).getByTestId('figures-source').textContent()).to.equal('No round trips yet · not enough trades');
    }
    expect(await card('neural-network').getByRole('button', { name: 'Retrain' }).count()).to.equal(1);
    expect(await card('rsi-technical').getByRole('button', { name: 'Retrain' }).count()).to.equal(0);
    expect(await seriousViolations(page, 'strategies premium')).to.deep.equal([]);
    await screenshot(page, 'ai-strategies-premium-new');

    await card('rsi-technical').getByTestId('strategy-switch').click();
    await expectToast(page, 'Strategy Updated', 'RSI Mean Reversion is now active');
    await page.getByTestId('active-count').filter({ hasText: '1 active strategy' }).waitFor();
    await card('rsi-technical').getByTestId('strategy-status').filter({ hasText: 'Active' }).waitFor();

    await card('rsi-technical').getByRole('button', { name: 'Configure' }).click();
    const dialog = page.getByTestId('configure-dialog');
    await dialog.getByTestId('config-rsiPeriod').waitFor();
    expect(await dialog.getByTestId('config-rsiPeriod').inputValue()).to.equal('14');
    expect(await seriousViolations(page, 'configure dialog')).to.deep.equal([]);
    await dialog.getByTestId('config-rsiPeriod').fill('21');
    await dialog.getByTestId('config-stopLoss').fill('3');
    await screenshot(page, 'ai-strategies-configure');
    await dialog.getByTestId('config-save').click();
    await expectToast(page, 'Configuration Saved');
    await dialog.getByTestId('config-rsiPeriod').waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).to.equal(false);
    await card('rsi-technical').getByTestId('strategy-config').filter({ hasText: 'RSI period: 21' }).waitFor();
    expect(await card('rsi-technical').getByTestId('strategy-config').textContent()).to.contain('Stop loss (%): 3');

    // Out of bounds: the field says so (the same bounds as the server's), nothing is sent, the dialog stays open.
    await card('rsi-technical').getByRole('button', { name: 'Configure' }).click();
    await dialog.getByTestId('config-rsiPeriod').fill('500');
    const sent: string[] = [];
    page.on('request', (r) => void (r.url().includes('/configure') && sent.push(r.url())));
    await dialog.getByTestId('config-save').click();
    expect(await dialog.getByTestId('config-rsiPeriod').evaluate((el) => (el as HTMLInputElement).validity.rangeOverflow)).to.equal(true);
    expect(await dialog.getByTestId('config-rsiPeriod').isVisible()).to.equal(true);
    expect(sent).to.deep.equal([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByTestId('config-rsiPeriod').waitFor({ state: 'detached' });

    // A toggle the server does not take.
    await page.route('**/api/strategies/*/toggle', (route) => route.fulfill({ status: 503, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Service Unavailable', status: 503, detail: 'try later' }) }));
    await card('cross-exchange-arbitrage').getByTestId('strategy-switch').click();
    await expectToast(page, 'Error', 'Failed to update strategy status');
    await screenshot(page, 'ai-strategies-toggle-error');
    await page.unroute('**/api/strategies/*/toggle');
    await card('cross-exchange-arbitrage').getByTestId('strategy-status').filter({ hasText: 'Inactive' }).waitFor();

    // Retrain trains a neural network with the card's learning rate and epochs (a long job): the toast when it has ended.
    const requests: unknown[] = [];
    page.on('request', (r) => void (r.url().endsWith('/api/ml/create-model') && requests.push(r.postDataJSON())));
    await card('neural-network').getByRole('button', { name: 'Retrain' }).click();
    const retrained = page.getByTestId('toast').filter({ hasText: 'Model Retrained' });
    await retrained.waitFor({ timeout: 180_000 });
    expect(await retrained.getByTestId('toast-description').textContent()).to.match(/^New accuracy: \d{1,3}\.\d% \(baseline \d{1,3}\.\d%\)$/);
    expect(requests).to.deep.equal([{ modelType: 'neural_network', trainingDays: 30, parameters: { learningRate: 0.001, epochs: 100 } }]);
  });

  it('Backtest: the dialog\'s defaults, a run of each type, Backtest Completed, the result below the cards, the card measured from it', async () => {
    await signIn(premium);
    await page.goto('/ai-signals');
    await card('rsi-technical').getByRole('button', { name: 'Backtest' }).click();
    const dialog = page.getByTestId('backtest-dialog');
    await dialog.getByTestId('backtest-start').waitFor();
    expect(await dialog.getByTestId('backtest-start').inputValue()).to.equal('2024-01-01');
    expect(await dialog.getByTestId('backtest-end').inputValue()).to.equal('2024-12-31');
    expect(await dialog.getByTestId('backtest-capital').inputValue()).to.equal('10000');
    await screenshot(page, 'ai-strategies-backtest-dialog');
    // A shorter period than the default year, to keep the browser test short.
    await dialog.getByTestId('backtest-end').fill('2024-02-15');
    await dialog.getByTestId('backtest-run').click();
    // 'Backtest Started' shows at once; the run may end before this line reads it, and its toast replaces it.
    await dialog.getByTestId('backtest-start').waitFor({ state: 'detached' });
    const done = page.getByTestId('toast').filter({ hasText: 'Backtest Completed' });
    await done.waitFor({ timeout: 180_000 });
    expect(await done.getByTestId('toast-description').textContent()).to.match(/^\d+ trades, win rate (\d+\.\d%|—)$/);
    await card('rsi-technical').getByTestId('figures-source').filter({ hasText: 'Latest backtest' }).waitFor();
    // The result below the cards: its figures, and how the strategy exited (its own stop loss and take profit).
    const result = page.getByTestId('backtest-result');
    await result.getByRole('heading', { name: 'Backtest: RSI Mean Reversion' }).waitFor();
    expect(await result.getByTestId('backtest-return').textContent()).to.match(/^[+-]?\d+\.\d%$/);
    // (the stop loss as configured above: 3 %)
    expect(await result.getByTestId('backtest-notes').textContent()).to.match(/at the stop loss \(3% below the entry close\) or at the take profit \(4% above it\)/);
    await screenshot(page, 'ai-strategies-after-backtest', { fullPage: true });
    // The neural strategy is backtested too, walk-forward over the models as they were: none was trained
    // by this period's end (models are trained on recent candles), so it says so and trades nothing.
    await card('neural-network').getByRole('button', { name: 'Backtest' }).click();
    await dialog.getByTestId('backtest-end').fill('2024-01-03');
    await dialog.getByTestId('backtest-run').click();
    await result.getByRole('heading', { name: 'Backtest: Neural Network Predictor' }).waitFor({ timeout: 180_000 });
    expect(await result.getByTestId('backtest-trades').textContent()).to.equal('0');
    expect(await result.getByTestId('backtest-notes').textContent()).to.match(/No model had been trained by the period's end, so nothing was traded/);
    // And arbitrage: round trips between the simulated exchanges, with how they fill.
    await card('cross-exchange-arbitrage').getByRole('button', { name: 'Backtest' }).click();
    await dialog.getByTestId('backtest-end').fill('2024-01-10');
    await dialog.getByTestId('backtest-run').click();
    await result.getByRole('heading', { name: 'Backtest: Cross-Exchange Arbitrage' }).waitFor({ timeout: 180_000 });
    expect(await result.getByTestId('backtest-notes').textContent()).to.match(/a round trip of 1000 USD: bought on the cheaper exchange and sold on the dearer one/);
    await screenshot(page, 'ai-strategies-arbitrage-backtest', { fullPage: true });
  });

  it('a premium user whose strategy traded: figures, Live Signals with the strategy and why, Performance chart, Analytics', async () => {
    const token = await signIn(seeded);
    // The seeded configuration is live: the app's strategy engine evaluates it at every candle close, so
    // a run that crosses one may add a real signal (or, rarely, a round trip) to the seeded ones. The
    // screen must show what the server has; the seeded ones are all there.
    const server = async () => ((await callAs(app.url, token, 'GET', '/api/strategies/signals')) as { signals: Array<{ netReturn: number | null }> }).signals;
    const tripsOf = (signals: Array<{ netReturn: number | null }>) => signals.filter((x) => x.netReturn !== null).length;
    await page.goto('/ai-signals');
    await card('rsi-technical').getByTestId('figure-win-rate').filter({ hasText: '%' }).waitFor();
    await waitUntil(async () => (await card('rsi-technical').getByTestId('figures-source').textContent()) === `Paper trading since activation · ${tripsOf(await server())} round trips`, { timeoutMs: 30_000, message: 'the figures of the round trips the server has' });
    for (const figure of ['accuracy', 'win-rate', 'max-drawdown']) expect(await card('rsi-technical').getByTestId(`figure-${figure}`).textContent(), figure).to.match(/^\d+\.\d%$/);
    for (const figure of ['profit-factor', 'sharpe']) expect(await card('rsi-technical').getByTestId(`figure-${figure}`).textContent(), figure).to.match(/^-?\d+\.\d\d$/);
    expect(await page.getByTestId('active-count').textContent()).to.equal('1 active strategy');
    await waitUntil(async () => (await page.getByTestId('signal-count').textContent()) === `${(await server()).length} live signals`, { timeoutMs: 30_000, message: 'the live signals the server has' });
    const signals = await server();
    const trips = tripsOf(signals);
    expect(signals.length).to.be.at.least(2 * ROUND_TRIPS);
    expect(trips).to.be.at.least(ROUND_TRIPS);
    await screenshot(page, 'ai-strategies-measured', { fullPage: true });

    await card('rsi-technical').getByRole('button', { name: 'Performance' }).click();
    const perf = page.getByTestId('performance-dialog');
    await perf.getByTestId('performance-chart').waitFor();
    expect(await perf.getByTestId('perf-total-trades').textContent()).to.equal(String(trips));
    expect(await perf.getByTestId('performance-chart-path-0').getAttribute('d')).to.match(new RegExp(`^M[\\d.]+,[\\d.]+(L[\\d.]+,[\\d.]+){${trips}}$`));
    expect(await seriousViolations(page, 'performance dialog')).to.deep.equal([]);
    await screenshot(page, 'ai-strategies-performance');
    await perf.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('tab', { name: 'Live Signals' }).click();
    await page.getByTestId('live-signal').first().waitFor();
    expect(await page.getByTestId('live-signal').count()).to.be.at.least(signals.length);
    expect(await page.getByTestId('signal-strategy').first().textContent()).to.equal('RSI Mean Reversion');
    // The seeded signals, each with why (newest first: the last round trip's SELL, then its BUY).
    const sells = page.getByTestId('signal-reason').filter({ hasText: /^RSI\(14\) 72\.0 entered overbought/ });
    expect(await sells.count()).to.equal(ROUND_TRIPS);
    expect(await sells.first().textContent()).to.match(/^RSI\(14\) 72\.0 entered overbought \(above 70\.0\) · round trip [+-]\d+\.\d\d% after fees$/);
    expect(await page.getByTestId('signal-reason').filter({ hasText: 'RSI(14) 25.0 entered oversold (below 30.0)' }).count()).to.equal(ROUND_TRIPS);
    expect(new URL(page.url()).searchParams.get('tab')).to.equal('signals');
    await screenshot(page, 'ai-strategies-live-signals');

    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.getByTestId('analytics-chart').waitFor();
    expect(await page.getByTestId('analytics-chart-path-1').count(), 'the technical strategy\'s curve').to.equal(1);
    expect(await page.getByTestId('analytics-chart-path-0').count(), 'no curve without round trips').to.equal(0);
    expect(await page.getByTestId('compare-rsi-technical').locator('td').nth(1).textContent()).to.equal(String(tripsOf(await server())));
    expect(await seriousViolations(page, 'analytics')).to.deep.equal([]);
    await screenshot(page, 'ai-strategies-analytics');
  });

  it('fits a 390 px screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(seeded);
    await page.goto('/ai-signals');
    await card('rsi-technical').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).to.be.at.most(0);
    await screenshot(page, 'ai-strategies-mobile', { fullPage: true });
  });
});
