/**
 * Subscription and Billing and the payment confirmation in real Chromium against the embedded app
 * (issue 9, "Browser tests"): a free user upgrades through the built-in test checkout to
 * /payment-success and back to /subscription, Premium active with the payment in Billing History;
 * cancelling (the dialog's text) shows the end date and reactivating restores it; a cancellation the
 * server refuses shows 'Cancellation Failed' with the server's message; the Free plan's button on a
 * Premium account is a cancellation at the period's end through the same dialog; a payment page opened
 * again after the subscription ended says so, and the used test checkout offers no Pay. Each test signs up its own
 * user and pays through the test checkout, so no test depends on another.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { subscriptionResponseSchema, type SubscriptionResponse } from '@papertrade/domain/subscription/contracts';
import { CANCEL_DIALOG_TEXT } from '../src/features/subscription/cancel-text';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { getViaApi, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { authToken, expectToast, screenshot, useBrowserSuite } from './support/browser';

async function send(base: string, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(new URL(path, base), {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

describe('web: subscription and billing (e2e)', function () {
  this.timeout(120_000);
  const ADMIN = { email: 'subs.admin@example.com', password: 'subs-admin-pass' };
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  let app: StartedApp;
  let page: Page;

  beforeEach(() => ({ app, page } = suite));

  const status = () => page.getByTestId('subscription-status');
  const tab = (name: string) => page.getByRole('tab', { name, exact: true });

  let lastUserId = '';
  /** A fresh free user, signed in through the API; the token is in the page's storage. */
  async function signInFree(): Promise<string> {
    const user = uniqueUser('sub');
    lastUserId = (await signUpViaApi(app.url, user)).userId;
    const token = await logInViaApi(app.url, user.email, user.password);
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    return token;
  }

  async function openSubscription() {
    await page.goto('/subscription');
    await page.getByRole('heading', { level: 1, name: 'Subscription and Billing' }).waitFor();
    await status().waitFor();
  }

  async function subscriptionOf(token: string) {
    return subscriptionResponseSchema.parse(await getViaApi(app.url, '/api/subscription', { Authorization: `Bearer ${token}` }));
  }

  /**
   * From /subscription as a free user: Upgrade to Premium Pro, 'Redirecting to Payment', the test
   * checkout page, pay, and /payment-success. Returns how many times the page reported the session.
   */
  async function buyPremium(): Promise<{ successCalls: string[] }> {
    const successCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/subscription/success') successCalls.push(request.postData() ?? '');
    });
    // The app leaves for the checkout right after showing the toast, and Playwright's locators wait
    // for a navigation to finish: an observer in the page reports every toast title as it appears.
    const toastTitles: string[] = [];
    await page.exposeFunction('reportToastTitle', (title: string) => void toastTitles.push(title));
    await page.evaluate(() => {
      const report = (window as unknown as { reportToastTitle: (t: string) => void }).reportToastTitle;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="toast-title"]')) report(el.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The checkout's answer, read on its way through (its body is gone once the page has left).
    let checkoutUrl: string | null = null;
    await page.route('**/api/subscription/checkout', async (route) => {
      const response = await route.fetch();
      checkoutUrl = ((await response.json()) as { url: string }).url;
      await route.fulfill({ response });
    });
    await page.getByTestId('plan-button-premium').click();
    await page.waitForURL((url) => url.pathname.startsWith('/test-checkout/'));
    await page.unroute('**/api/subscription/checkout');
    expect(checkoutUrl, 'the checkout answered a URL').to.be.a('string');
    expect(page.url(), 'the browser went to the URL the server answered').to.equal(new URL(checkoutUrl!, app.url).href);
    expect(toastTitles, 'the toast shown before leaving').to.include('Redirecting to Payment');

    // The built-in test checkout says it is a test and pays through the same success path.
    await page.getByText(/test payment/i).first().waitFor();
    await screenshot(page, 'subscription-test-checkout');
    await page.getByRole('button', { name: /pay/i }).first().click();
    await page.waitForURL((url) => url.pathname === '/payment-success');
    return { successCalls };
  }

  it('upgrades a free user through the test checkout to /payment-success and back to Premium with a billing row', async () => {
    const token = await signInFree();
    await openSubscription();
    expect(await page.getByTestId('subscription-plan').textContent()).to.equal('Free Starter');
    expect(await page.getByTestId('subscription-tier').textContent()).to.equal('FREE');
    expect(await page.getByTestId('plan-button-free').textContent()).to.equal('Current Plan');
    expect(await page.getByTestId('plan-button-free').isDisabled()).to.equal(true);

    // Usage: the free plan's limits from the catalogue, a bar per limited line.
    await tab('Usage').click();
    const before = await subscriptionOf(token);
    const strategies = page.getByTestId('usage-tradingStrategies');
    expect(await strategies.getByTestId('usage-tradingStrategies-value').textContent()).to.equal(`${before.usage.tradingStrategies.used} / ${before.usage.tradingStrategies.limit}`);
    expect(await strategies.getAttribute('data-level')).to.equal('ok');
    expect(await page.getByTestId('usage-trades-value').textContent()).to.match(/· Unlimited$/);

    await tab('Billing History').click();
    await page.getByTestId('billing-empty').waitFor();
    await tab('Plans').click();
    await screenshot(page, 'subscription-free', { fullPage: true });

    const { successCalls } = await buyPremium();
    const sessionId = new URL(page.url()).searchParams.get('session_id');
    expect(sessionId, 'the success URL carries session_id').to.be.a('string').and.not.equal('');
    const confirmed = page.getByTestId('payment-success');
    await confirmed.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(await page.getByTestId('payment-plan').textContent()).to.equal('Your Premium Pro subscription is now active.');
    expect(await page.getByTestId('payment-features').getByText('Real trading API integration', { exact: true }).count()).to.equal(1);
    expect(await page.getByTestId('pay-to-dashboard').getAttribute('href')).to.equal('/');
    expect(await page.getByTestId('pay-to-subscription').getAttribute('href')).to.equal('/subscription');
    // Reported once, with the session of the query string.
    expect(successCalls).to.deep.equal([JSON.stringify({ sessionId })]);
    await screenshot(page, 'payment-success', { fullPage: true });

    await page.getByTestId('pay-to-subscription').click();
    await page.getByTestId('subscription-plan').filter({ hasText: 'Premium Pro' }).waitFor();
    expect(await page.getByTestId('subscription-tier').textContent()).to.equal('PREMIUM');
    expect(await page.getByTestId('subscription-state').textContent()).to.equal('Active');
    expect(await page.getByTestId('plan-button-premium').textContent()).to.equal('Current Plan');
    await tab('Billing History').click();
    const row = page.getByTestId('billing-row');
    await row.first().waitFor();
    expect(await row.count()).to.equal(1);
    expect(await row.first().textContent()).to.include('$29.00').and.include('Paid');
    await screenshot(page, 'subscription-premium-billing', { fullPage: true });

    // Back to the confirmation in the same page: it mounts again (as StrictMode's second effect run
    // would) and shows the same answer without reporting the session a second time.
    await page.goBack();
    await page.getByTestId('payment-success').getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    expect(await page.getByTestId('payment-plan').textContent()).to.equal('Your Premium Pro subscription is now active.');
    expect(successCalls, 'one report per session for the life of the page').to.have.length(1);
  });

  it('cancels with the dialog, shows the end date and days remaining, and reactivation restores Premium', async () => {
    const token = await signInFree();
    await openSubscription();
    await buyPremium();
    await page.getByTestId('payment-success').waitFor();
    await page.getByTestId('pay-to-subscription').click();
    await page.getByTestId('subscription-plan').filter({ hasText: 'Premium Pro' }).waitFor();

    await page.getByTestId('subscription-cancel').click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await dialog.waitFor();
    expect(await dialog.getByText(CANCEL_DIALOG_TEXT, { exact: true }).isVisible()).to.equal(true);
    await screenshot(page, 'subscription-cancel-dialog');
    await dialog.getByRole('button', { name: 'Keep Subscription' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await subscriptionOf(token)).isCancelled, 'Keep Subscription calls nothing').to.equal(false);

    await page.getByTestId('subscription-cancel').click();
    await dialog.getByTestId('cancel-confirm').click();
    await page.getByTestId('subscription-state').filter({ hasText: 'Cancelled' }).waitFor();
    // The read model the page read: what it shows must be the server's end date and count.
    const cancelled = await waitUntil(async () => {
      const now = await subscriptionOf(token);
      return now.isCancelled ? now : null;
    }, { message: 'GET /api/subscription to say cancelled' });
    const endsAt = cancelled.endsAt!.formatted;
    await expectToast(page, 'Subscription Cancelled', `You keep Premium access until ${endsAt}`);
    await page.getByTestId('subscription-state').filter({ hasText: 'Cancelled' }).waitFor();
    expect(await page.getByTestId('subscription-ends').textContent()).to.equal(`Access until ${endsAt} · ${cancelled.daysRemaining} days remaining`);
    expect(cancelled.daysRemaining).to.be.within(29, 30);
    expect(await page.getByTestId('subscription-cancel').count()).to.equal(0);
    await screenshot(page, 'subscription-cancelled', { fullPage: true });

    await page.getByTestId('subscription-reactivate').click();
    await expectToast(page, 'Subscription Reactivated');
    await page.getByTestId('subscription-state').filter({ hasText: 'Active' }).waitFor();
    expect(await page.getByTestId('subscription-ends').count()).to.equal(0);
    await page.getByTestId('subscription-cancel').waitFor();
    const restored = await subscriptionOf(token);
    expect([restored.tier, restored.subscriptionStatus, restored.isCancelled, restored.endsAt]).to.deep.equal(['PREMIUM', 'ACTIVE', false, null]);
  });

  it("the Plans tab's Free button on a Premium account cancels at the period's end through the Cancel dialog: the paid month is kept", async () => {
    const token = await signInFree();
    await openSubscription();
    await buyPremium();
    await page.getByTestId('payment-success').waitFor();
    await page.getByTestId('pay-to-subscription').click();
    await page.getByTestId('subscription-plan').filter({ hasText: 'Premium Pro' }).waitFor();

    const calls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/subscription/upgrade' || path === '/api/subscription/cancel') calls.push(path);
    });
    const free = page.getByTestId('plan-button-free');
    expect(await free.textContent()).to.equal('Switch to Free Starter at period end');
    await free.click();
    const dialog = page.getByRole('dialog', { name: 'Cancel Subscription' });
    await dialog.waitFor();
    expect(await dialog.getByText(CANCEL_DIALOG_TEXT, { exact: true }).isVisible()).to.equal(true);
    // Keep Subscription changes nothing.
    await dialog.getByRole('button', { name: 'Keep Subscription' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(calls).to.deep.equal([]);

    await free.click();
    await dialog.getByTestId('cancel-confirm').click();
    await page.getByTestId('subscription-state').filter({ hasText: 'Cancelled' }).waitFor();
    const cancelled = await waitUntil(async () => {
      const now = await subscriptionOf(token);
      return now.isCancelled ? now : null;
    }, { message: 'GET /api/subscription to say cancelled' });
    await expectToast(page, 'Subscription Cancelled', `You keep Premium access until ${cancelled.endsAt!.formatted}`);
    // Still Premium until the end date; the button says when Free starts.
    expect([cancelled.tier, cancelled.subscriptionStatus]).to.deep.equal(['PREMIUM', 'ACTIVE']);
    expect(await page.getByTestId('subscription-tier').textContent()).to.equal('PREMIUM');
    await free.filter({ hasText: `Free Starter from ${cancelled.endsAt!.formatted}` }).waitFor();
    expect(await free.isDisabled()).to.equal(true);
    expect(calls).to.deep.equal(['/api/subscription/cancel']);
    await screenshot(page, 'subscription-free-at-period-end');
  });

  it('a payment page opened again after the subscription ended says so, and the used test checkout offers no Pay button', async () => {
    const token = await signInFree();
    const userId = lastUserId;
    await openSubscription();
    await buyPremium();
    await page.getByTestId('payment-success').getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    const successUrl = page.url();
    const sessionId = new URL(successUrl).searchParams.get('session_id')!;
    // Opened again while still Premium: confirmed earlier, not "now".
    await page.goto(successUrl);
    await page.getByTestId('payment-active').getByRole('heading', { name: 'Payment Already Confirmed' }).waitFor();

    // The subscription ends (an admin's move to Free): the old page no longer claims it is active.
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    expect((await send(app.url, 'PUT', `/api/admin/users/${userId}`, adminToken, { subscriptionTier: 'FREE' })).status).to.equal(200);
    await page.goto(successUrl);
    const ended = page.getByTestId('payment-superseded');
    await ended.getByRole('heading', { name: 'Subscription No Longer Active' }).waitFor();
    expect(await page.getByTestId('payment-plan').textContent()).to.equal('This checkout was paid earlier, but the Premium Pro subscription it started has ended since: your account is now on the FREE plan.');
    expect(await page.getByRole('heading', { name: 'Payment Successful!' }).count()).to.equal(0);
    expect((await subscriptionOf(token)).tier).to.equal('FREE');
    await screenshot(page, 'payment-superseded');

    await page.goto(`/test-checkout/${sessionId}`);
    await page.getByText('This checkout was paid and confirmed already; it cannot be paid again.').waitFor();
    expect(await page.getByRole('button', { name: /pay/i }).count()).to.equal(0);
  });

  it("shows 'Cancellation Failed' with the server's message when the server refuses the cancellation", async () => {
    const token = await signInFree();
    await openSubscription();
    await buyPremium();
    await page.getByTestId('payment-success').waitFor();
    await page.getByTestId('pay-to-subscription').click();
    await page.getByTestId('subscription-cancel').waitFor();

    // Another device cancels first; this page still offers Cancel, and the server refuses the second.
    const elsewhere = await send(app.url, 'POST', '/api/subscription/cancel', token);
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).to.equal(200);
    const refusal = await send(app.url, 'POST', '/api/subscription/cancel', token);
    expect(refusal.status, 'a second cancel is refused').to.be.within(400, 499);
    const detail = (refusal.body as { detail?: string }).detail;
    expect(detail, 'the refusal says why').to.be.a('string').and.not.equal('');

    await page.getByTestId('subscription-cancel').click();
    await page.getByTestId('cancel-confirm').click();
    const toast = await expectToast(page, 'Cancellation Failed', detail);
    expect(toast.variant).to.equal('destructive');
    await screenshot(page, 'subscription-cancellation-failed');
    expect((await authToken(page)) !== null, 'a refusal does not sign out').to.equal(true);
  });

  it('colours the usage bars from the counts: 90 percent or more red, 70 percent or more amber', async () => {
    const token = await signInFree();
    // Real counts this high need features that do not exist yet (strategies, exchanges): the
    // server's own answer for this user, with only the counts raised, stands in for it.
    const real = await subscriptionOf(token);
    const answer: SubscriptionResponse = subscriptionResponseSchema.parse({
      ...real,
      usage: {
        tradingStrategies: { used: 9, limit: 10, tracked: true },
        exchanges: { used: 7, limit: 10, tracked: true },
        apiCalls: { used: 699, limit: 1000, tracked: true },
        trades: { used: 4, limit: null, tracked: true },
      },
    });
    await page.route('**/api/subscription', (route) => route.fulfill({ json: answer }));
    await openSubscription();
    await tab('Usage').click();
    const fill = (id: string) => page.getByTestId(`usage-${id}`).locator('.usage-bar__fill');
    const colour = (id: string) => fill(id).evaluate((el) => getComputedStyle(el).backgroundColor);
    const cssVar = (name: string) =>
      page.evaluate((n) => {
        const probe = document.createElement('div');
        probe.style.backgroundColor = `var(${n})`;
        document.body.append(probe);
        const value = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return value;
      }, name);
    expect(await page.getByTestId('usage-tradingStrategies').getAttribute('data-level')).to.equal('danger');
    expect(await colour('tradingStrategies')).to.equal(await cssVar('--down'));
    expect(await page.getByTestId('usage-exchanges').getAttribute('data-level')).to.equal('warn');
    expect(await colour('exchanges')).to.equal(await cssVar('--warn'));
    expect(await page.getByTestId('usage-apiCalls').getAttribute('data-level')).to.equal('ok');
    expect(await colour('apiCalls')).to.equal(await cssVar('--accent'));
    expect(await fill('tradingStrategies').evaluate((el) => el.style.width)).to.equal('90%');
    expect(await page.getByTestId('usage-trades-value').textContent()).to.equal('4 · Unlimited');
    expect(await fill('trades').count(), 'no bar without a limit').to.equal(0);
    await screenshot(page, 'subscription-usage', { fullPage: true });
  });
});
