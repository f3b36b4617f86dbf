/**
 * Settings and Exchange API Integration in real Chromium (issue 21), the embedded app with ccxt
 * pointed at the local fake exchange (test/fake-exchange-server.ts, in this process): every tab and
 * state of both screens. Visitors see a login prompt, free users the upgrade prompts; a premium user
 * saves keys (only their last four come back), tests a connection (Connection Successful / Connection
 * Failed with the exchange's message), switches Mirror to testnet on, turns real trading on through
 * the confirmation dialog (Escape cancels), reads the connected account's real balance on Monitoring
 * (or the paper portfolio's without one), saves Bot Settings (and sees a refusal shown), the API
 * settings, notification switches, the read-only risk parameters and the plans.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { FakeExchangeServer } from '../../test/fake-exchange-server';
import type { StartedApp } from '../../test/app-process';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { seriousViolations } from './support/axe';
import { expectToast, screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'exchange-admin@papertrade.test', password: 'admin-password-1' };
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('web: Settings and Exchange API Integration (e2e, fake exchange)', function () {
  this.timeout(240_000);
  let fake: FakeExchangeServer;
  // Filled in before the app starts (this hook runs before the suite's, which reads it).
  const env: Record<string, string> = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, EXCHANGE_TIMEOUT_MS: '2000' };
  before(async () => {
    fake = await FakeExchangeServer.start();
    env.EXCHANGE_API_URL = fake.baseUrl;
  });
  after(async () => fake?.close());
  const suite = useBrowserSuite({ env });
  let app: StartedApp;
  let page: Page;
  beforeEach(() => ({ app, page } = suite));

  async function account(prefix: string, premium: boolean): Promise<{ userId: string; token: string }> {
    const user = uniqueUser(prefix);
    const { userId } = await signUpViaApi(app.url, user);
    if (premium) {
      const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
      await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    }
    return { userId, token: await logInViaApi(app.url, user.email, user.password) };
  }

  async function arrive(token: string | null, path: string) {
    await page.goto('/landing');
    await page.evaluate((t) => (t ? localStorage.setItem('authToken', t) : localStorage.removeItem('authToken')), token);
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    if (token) await page.getByTestId('user-block').waitFor();
  }

  const h1 = () => page.getByRole('heading', { level: 1 });
  const tab = (name: string) => page.getByRole('tab', { name, exact: true });

  it('visitors get a login prompt on both screens; free users the upgrade prompts, and Settings without premium', async () => {
    await arrive(null, '/settings');
    expect(await h1().textContent()).to.equal('Settings');
    await page.getByTestId('settings-login-prompt').getByRole('link', { name: 'Login' }).waitFor();
    await arrive(null, '/api-integration');
    expect(await h1().textContent()).to.equal('Exchange API Integration');
    await page.getByTestId('exchanges-login-prompt').waitFor();

    const free = await account('xfree', false);
    await arrive(free.token, '/api-integration');
    await page.getByTestId('exchanges-premium-required').getByRole('link', { name: 'Upgrade to Premium' }).waitFor();
    await arrive(free.token, '/settings?tab=api');
    await page.getByTestId('api-premium-required').waitFor();
    // The rest of Settings is for every signed-in user.
    await tab('Notifications').click();
    await page.getByTestId('notify-riskAlerts').waitFor();
    await tab('Bot Settings').click();
    await page.getByTestId('bot-maxPositionSize').waitFor();
  });

  it('Exchanges: keys saved (only the last four shown), Test Connection enabled only with both keys, connected with the balance, a failure in the exchange\'s words, Kraken read-only, the mirror', async () => {
    const user = await account('xprem', true);
    const good = { apiKey: `e2e-binance-${Date.now()}-K3Y9`, secret: b64(`e2e-binance-secret-${Date.now()}`) };
    fake.addAccount({ exchange: 'binance', apiKey: good.apiKey, secret: good.secret, balances: { BTC: 0.1, USDT: 2500 } });
    await arrive(user.token, '/api-integration');
    const binance = page.getByTestId('exchange-binance');
    await binance.waitFor();
    for (const id of ['binance', 'coinbase', 'kraken']) await page.getByTestId(`exchange-${id}`).waitFor();
    expect(await page.getByTestId('exchange-kraken-testnet-note').textContent()).to.match(/^Kraken has no testnet: the connection is read-only \(balance\) and real trading stays off/);
    expect(await page.getByTestId('exchange-coinbase').getByLabel('Passphrase').count()).to.equal(1);
    expect(await page.getByTestId('exchange-binance-status').textContent()).to.equal('Disconnected');
    const testButton = page.getByTestId('exchange-binance-test');
    expect(await testButton.isDisabled()).to.equal(true);
    await page.getByTestId('exchange-binance-apiKey').fill(good.apiKey);
    expect(await testButton.isDisabled(), 'the key alone').to.equal(true);
    await page.getByTestId('exchange-binance-secretKey').fill(good.secret);
    expect(await testButton.isDisabled(), 'both keys').to.equal(false);
    await page.getByTestId('exchange-binance-save').click();
    await expectToast(page, 'Configuration Saved');
    await page.getByTestId('exchange-binance-key').filter({ hasText: '••••K3Y9' }).waitFor();
    expect(await page.getByTestId('exchange-binance-apiKey').inputValue()).to.equal('');
    expect(await page.content()).not.to.contain(good.secret);
    // Saved keys count as filled: the test runs on them.
    expect(await testButton.isDisabled()).to.equal(false);
    await testButton.click();
    await expectToast(page, 'Connection Successful');
    await page.getByTestId('exchange-binance-status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByTestId('exchange-binance-balance').waitFor();

    // A key the exchange does not know: the spec's toast, and the exchange's message on the card.
    await page.getByTestId('exchange-coinbase-apiKey').fill('e2e-unknown-coinbase-key');
    await page.getByTestId('exchange-coinbase-secretKey').fill(b64('e2e-unknown-secret'));
    expect(await page.getByTestId('exchange-coinbase-test').isDisabled(), 'no passphrase yet').to.equal(true);
    await page.getByTestId('exchange-coinbase-passphrase').fill('e2e-pass');
    await page.getByTestId('exchange-coinbase-test').click();
    await expectToast(page, 'Connection Failed', 'Failed to connect to exchange API');
    await page.getByTestId('exchange-coinbase-status').filter({ hasText: 'Error' }).waitFor();
    expect(await page.getByTestId('exchange-coinbase-error').textContent()).to.match(/^Connection Failed: .*Invalid API Key/);
    await screenshot(page, 'api-integration-exchanges', { fullPage: true });

    // Mirror to testnet: only a connected testnet account may.
    expect(await page.getByTestId('exchange-coinbase-mirror').isDisabled()).to.equal(true);
    // The switch shows the server's state: it turns on once the command is answered.
    await page.getByTestId('exchange-binance-mirror').click();
    await expectToast(page, 'Configuration Saved', 'Bot trades are mirrored to the Binance testnet');
    await page.reload();
    await page.getByTestId('exchange-binance-mirror').waitFor();
    expect(await page.getByTestId('exchange-binance-mirror').isChecked()).to.equal(true);
    expect(await seriousViolations(page, 'exchanges, connected and failed')).to.deep.equal([]);

    // Monitoring: the connected account's real balance and allocation, never the spec's fixed figures.
    await tab('Monitoring').click();
    const total = await page.getByTestId('monitoring-binance-total').textContent();
    const exchanges = (await callAs(app.url, user.token, 'GET', '/api/exchanges')) as { exchanges: Array<{ id: string; balance: { totalUsd: number; allocatedPercent: number } | null }> };
    const balance = exchanges.exchanges.find((e) => e.id === 'binance')!.balance!;
    expect(Number(total!.replace(/[$,]/g, ''))).to.be.closeTo(balance.totalUsd, balance.totalUsd * 0.05);
    expect(await page.getByTestId('monitoring-binance-allocated').textContent()).to.match(/^\d+\.\d\d%$/);
    expect(await page.content()).not.to.contain('12,487.32');
    await screenshot(page, 'api-integration-monitoring');
  });

  it('Trading Settings: paper on, real off; real on only through the confirmation dialog (Escape cancels), kept after a reload', async () => {
    const user = await account('xtrade', true);
    await arrive(user.token, '/api-integration?tab=trading');
    const real = page.getByTestId('real-trading-switch');
    await real.waitFor();
    expect(await page.getByTestId('paper-trading-switch').isChecked()).to.equal(true);
    expect(await real.isChecked()).to.equal(false);
    expect(await page.getByTestId('real-trading-note').textContent()).to.contain('places no real-money order');
    await real.click();
    const dialog = page.getByTestId('real-trading-dialog');
    await dialog.getByRole('heading', { name: 'Turn on real trading?' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).to.equal('real-trading-cancel');
    expect(await seriousViolations(page, 'real trading dialog')).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await dialog.getByRole('heading').waitFor({ state: 'detached' });
    expect(await real.isChecked()).to.equal(false);
    expect(((await callAs(app.url, user.token, 'GET', '/api/settings')) as { tradingMode: { realTrading: boolean } }).tradingMode.realTrading).to.equal(false);
    await real.click();
    await page.getByTestId('real-trading-confirm').click();
    await expectToast(page, 'API Settings Saved');
    await page.reload();
    await page.getByTestId('real-trading-switch').waitFor();
    expect(await page.getByTestId('real-trading-switch').isChecked()).to.equal(true);
    await screenshot(page, 'api-integration-trading-settings');
  });

  it('Monitoring without a connected exchange shows the paper portfolio\'s balance and allocation', async () => {
    const user = await account('xmon', true);
    await arrive(user.token, '/api-integration?tab=monitoring');
    await page.getByTestId('monitoring-paper').waitFor();
    expect(await page.getByTestId('paper-account-total').textContent()).to.equal('$10,000.00');
    expect(await page.getByTestId('paper-account-allocated').textContent()).to.equal('0.00%');
  });

  it('Settings: Bot Settings saved into the risk profile (and a refusal shown), API settings saved, risk read-only, notifications kept, the plans', async () => {
    const user = await account('xset', true);
    await arrive(user.token, '/settings');
    const max = page.getByTestId('bot-maxPositionSize');
    await max.waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="bot-maxPositionSize"]') as HTMLInputElement | null)?.value === '5');
    await max.fill('6');
    await page.getByTestId('bot-settings-save').click();
    await expectToast(page, 'Settings Saved');
    // One risk profile: Risk Management's parameters follow at once.
    const parameters = (await callAs(app.url, user.token, 'GET', '/api/risk/parameters')) as { maxPositionSize: number };
    expect(parameters.maxPositionSize).to.equal(6);
    await page.getByTestId('bot-stopLoss').fill('50');
    await page.getByTestId('bot-settings-save').click();
    const refused = await expectToast(page, 'Error');
    expect(refused.description).to.match(/^Failed to save settings: .*stopLoss/);
    await screenshot(page, 'settings-bot');

    await tab('API Configuration').click();
    await page.getByTestId('api-binanceKey').fill('e2e-settings-key-AB12');
    await page.getByTestId('api-settings-save').click();
    const missing = await expectToast(page, 'Error');
    expect(missing.description).to.match(/^Failed to save API settings: .*binanceSecret/);
    await page.getByTestId('api-binanceSecret').fill('e2e-settings-secret-value');
    await page.getByTestId('api-settings-save').click();
    await expectToast(page, 'API Settings Saved', 'Saved keys ending AB12 (binance)');
    expect(await page.getByTestId('api-binanceKey').inputValue()).to.equal('');
    const exchanges = (await callAs(app.url, user.token, 'GET', '/api/exchanges')) as { exchanges: Array<{ id: string; keyLast4: string | null }> };
    expect(exchanges.exchanges.find((e) => e.id === 'binance')!.keyLast4).to.equal('AB12');
    await page.getByTestId('trading-settings').waitFor();

    await tab('Risk Management').click();
    await page.getByTestId('risk-parameters-summary').getByText('6', { exact: true }).waitFor();
    expect(await page.getByTestId('settings-risk').locator('input').count()).to.equal(0);

    await tab('Notifications').click();
    const botTrades = page.getByTestId('notify-botTrades');
    await botTrades.waitFor();
    expect(await botTrades.isChecked()).to.equal(true);
    await botTrades.click();
    await expectToast(page, 'Settings Saved');
    await page.reload();
    await page.getByTestId('notify-botTrades').waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="notify-botTrades"]') as HTMLInputElement | null)?.checked === false);
    await screenshot(page, 'settings-notifications');

    await tab('Subscription').click();
    await page.getByTestId('settings-subscription').getByText('Premium Pro').first().waitFor();
    expect(await page.getByTestId('settings-manage-subscription').getAttribute('href')).to.equal('/subscription');
    expect(await seriousViolations(page, 'settings subscription tab')).to.deep.equal([]);
  });
});
