/**
 * The Notifications switches decide which events reach the person as toasts (issue 21), in real
 * Chromium against the embedded app with a fast market (the risk monitor sees a tick within a second):
 * a risk alert the monitor raises while the person is on another screen arrives as a toast; with
 * 'Risk alerts' switched off on the Settings screen, the next alert is listed on Risk Management but
 * no toast shows.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { expectToast, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'notify-admin@papertrade.test', password: 'admin-password-1' };

describe('web: notification toasts follow the Notifications switches (e2e)', function () {
  this.timeout(180_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, MARKET_TICK_MS: '500' } });
  let app: StartedApp;
  let page: Page;
  beforeEach(() => ({ app, page } = suite));

  it('a new risk alert is a toast on any screen; with Risk alerts off it is listed but not toasted', async () => {
    const user = uniqueUser('notify');
    const { userId } = await signUpViaApi(app.url, user);
    const admin = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await callAs(app.url, admin, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    const token = await logInViaApi(app.url, user.email, user.password);
    const parameters = (await callAs(app.url, token, 'GET', '/api/risk/parameters')) as Record<string, unknown>;
    delete parameters.customised;
    // Any position is above a 0.1 percent maximum size: the monitor raises one alert per position.
    await callAs(app.url, token, 'PUT', '/api/risk/parameters', { ...parameters, maxPositionSize: 0.1, volatilityThreshold: 100, maxDrawdown: 50 });

    // On the Settings screen, the shell's toasts have read the alerts once (the baseline: none).
    const firstRead = page.waitForResponse((r) => r.url().endsWith('/api/risk/alerts') && r.ok());
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto('/settings?tab=notifications');
    await page.getByTestId('notify-riskAlerts').waitFor();
    await firstRead;

    await callAs(app.url, token, 'POST', '/api/trades', { symbol: 'ETH', type: 'BUY', amount: 0.5 });
    const toast = await expectToast(page, 'Risk Alert (medium)');
    expect(toast.description).to.match(/ETH position is/);

    // Risk alerts off: the next alert (BTC's position size) is listed, never toasted.
    await page.getByTestId('notify-riskAlerts').click();
    await expectToast(page, 'Settings Saved');
    await page.waitForFunction(() => (document.querySelector('[data-testid="notify-riskAlerts"]') as HTMLInputElement | null)?.checked === false);
    await callAs(app.url, token, 'POST', '/api/trades', { symbol: 'BTC', type: 'BUY', amount: 0.01 });
    // Inside the app (no reload): a reload would make the new alert part of a fresh baseline.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Risk Management' }).click();
    await page.getByRole('tab', { name: 'Risk Alerts' }).click();
    await waitUntil(async () => (await page.getByTestId('risk-alert').filter({ hasText: 'BTC position is' }).count()) === 1, { timeoutMs: 60_000, message: "BTC's alert listed" });
    // Let React commit the effects of that render (the toasts' effect runs on the same data).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const titles = await page.getByTestId('toast-title').allTextContents();
    expect(titles.filter((t) => t.startsWith('Risk Alert'))).to.deep.equal([]);
  });
});
