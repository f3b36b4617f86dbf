/**
 * Accessibility in real Chromium (issue 16, "Quality bars"): axe-core (@axe-core/playwright) on
 * every screen of the route table for a visitor, a free user, a premium user and an admin, with no
 * serious or critical violation of WCAG 2.1 A/AA or axe's best practices allowed. Each screen is
 * scanned once it has settled: its heading shown and the network idle (its first reads answered).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowserSuite } from './support/browser';

const ADMIN = { email: 'a11y-admin@papertrade.test', password: 'admin-password-1' };

/** Every route of the spec's route table (and the tabs of Backtesting), plus the API reference and an unknown path (the 404 page). */
const SCREENS = [
  '/',
  '/landing',
  '/login',
  '/signup',
  '/ai-signals',
  '/trade-history',
  '/backtesting',
  '/backtesting?tab=results',
  '/backtesting?tab=history',
  '/risk-management',
  '/settings',
  '/api-integration',
  '/subscription',
  '/admin',
  '/payment-success',
  '/api-docs',
  '/no-such-page',
] as const;

async function settle(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForLoadState('networkidle');
}

describe('web: accessibility of every screen (e2e, axe-core)', function () {
  this.timeout(300_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });

  async function tokenFor(role: 'visitor' | 'free' | 'premium' | 'admin'): Promise<string | null> {
    const { app } = suite;
    if (role === 'visitor') return null;
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    if (role === 'admin') return adminToken;
    const user = uniqueUser(`a11y${role}`);
    const { userId } = await signUpViaApi(app.url, user);
    if (role === 'premium') await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    return logInViaApi(app.url, user.email, user.password);
  }

  for (const role of ['visitor', 'free', 'premium', 'admin'] as const) {
    it(`${role}: no serious or critical violation on any screen`, async () => {
      const { page } = suite;
      const token = await tokenFor(role);
      await page.goto('/landing');
      await page.evaluate((t) => (t ? localStorage.setItem('authToken', t) : localStorage.removeItem('authToken')), token);
      const found: string[] = [];
      for (const path of SCREENS) {
        await settle(page, path);
        found.push(...(await seriousViolations(page, `${role} ${path}`)));
      }
      expect(found, found.join('\n')).to.deep.equal([]);
    });
  }
});
