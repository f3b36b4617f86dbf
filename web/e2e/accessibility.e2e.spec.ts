/**
 * Exploration (not final): axe-core on every screen for every role, printing serious and critical violations.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { useBrowserSuite } from './support/browser';

const ADMIN = { email: 'a11y-admin@papertrade.test', password: 'admin-password-1' };
const ROUTES = ['/', '/landing', '/login', '/signup', '/ai-signals', '/trade-history', '/backtesting', '/risk-management', '/settings', '/api-integration', '/subscription', '/admin', '/payment-success', '/api-docs', '/nowhere'];

describe('web: accessibility exploration (e2e)', function () {
  this.timeout(600_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });

  async function scan(page: Page, label: string) {
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    for (const v of result.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      console.log(`${label}: [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length}) e.g. ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    }
  }

  it('scans', async () => {
    const { app, page } = suite;
    const roles: Array<[string, string | null]> = [['visitor', null]];
    const free = uniqueUser('a11yf');
    await signUpViaApi(app.url, free);
    roles.push(['free', await logInViaApi(app.url, free.email, free.password)]);
    const prem = uniqueUser('a11yp');
    const { userId } = await signUpViaApi(app.url, prem);
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    roles.push(['premium', await logInViaApi(app.url, prem.email, prem.password)]);
    roles.push(['admin', adminToken]);
    for (const [role, token] of roles) {
      await page.goto('/landing');
      await page.evaluate((t) => (t ? localStorage.setItem('authToken', t) : localStorage.removeItem('authToken')), token);
      for (const route of ROUTES) {
        await page.goto(route);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(1500);
        await scan(page, `${role} ${route}`);
      }
    }
  });
});
