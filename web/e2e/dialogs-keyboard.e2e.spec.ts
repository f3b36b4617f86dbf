/**
 * Every dialog of the app operated by keyboard alone, in real Chromium (issue 16, "Quality bars"):
 * the trigger is focused and pressed with Enter, focus moves into the dialog, Tab and Shift+Tab stay
 * inside it, Escape closes it and focus goes back to the trigger, and the dialog's own action is
 * done with the keyboard too. axe-core finds no serious or critical violation with the dialog open.
 *
 * The dialogs: the admin's Edit User, the subscription's Cancel (also behind 'Switch to Free Starter
 * at period end'), the trade form's position-size confirmation. The coin selector has the same checks
 * in dashboard.e2e.spec.ts ('the coin selector: focus moves in and is trapped ...').
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { expectToast, useBrowserSuite } from './support/browser';
import { seriousViolations } from './support/axe';

const ADMIN = { email: 'dialogs-admin@papertrade.test', password: 'admin-password-1' };

/** Whether the focused element is inside `dialog`. */
const focusInside = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));

/** Tabs forwards and backwards past the dialog's end: focus never leaves it. */
async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  expect(await focusInside(dialog), 'focus moved into the dialog').to.equal(true);
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInside(dialog), `focus inside after Tab #${i + 1}`).to.equal(true);
  }
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusInside(dialog), `focus inside after Shift+Tab #${i + 1}`).to.equal(true);
  }
}

/** Tabs until the focused element has this accessible text (a button's label). */
async function tabTo(page: Page, dialog: Locator, label: string): Promise<void> {
  for (let i = 0; i < 20; i += 1) {
    const text = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? '');
    if (text === label) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`no focusable "${label}" in ${await dialog.getAttribute('data-testid')}`);
}

async function openWithKeyboard(page: Page, trigger: Locator, dialog: Locator): Promise<void> {
  await trigger.focus();
  await page.keyboard.press('Enter');
  await dialog.waitFor();
}

async function expectEscapeReturnsFocus(page: Page, trigger: Locator, dialog: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  expect(await trigger.evaluate((el) => el === document.activeElement), 'focus back on the trigger').to.equal(true);
}

describe('web: every dialog by keyboard alone (e2e)', function () {
  this.timeout(180_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });

  async function arrive(page: Page, token: string, path: string) {
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto(path);
    await page.getByTestId('user-block').waitFor();
  }

  async function premiumUser(): Promise<{ userId: string; token: string; username: string }> {
    const { app } = suite;
    const user = uniqueUser('dlg');
    const { userId } = await signUpViaApi(app.url, user);
    const admin = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await callAs(app.url, admin, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    return { userId, token: await logInViaApi(app.url, user.email, user.password), username: user.username };
  }

  it("the admin's Edit User dialog: in, trapped, Escape back to Edit, saved with Enter", async () => {
    const { page, app } = suite;
    const target = await premiumUser();
    await arrive(page, await logInViaApi(app.url, ADMIN.email, ADMIN.password), '/admin');
    const row = page.getByRole('row').filter({ hasText: target.username });
    const edit = row.getByRole('button', { name: 'Edit' });
    const dialog = page.getByTestId('edit-user-dialog');

    await openWithKeyboard(page, edit, dialog);
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).to.equal(target.username);
    expect(await seriousViolations(page, 'Edit User dialog')).to.deep.equal([]);
    await expectFocusTrapped(page, dialog);
    await expectEscapeReturnsFocus(page, edit, dialog);

    await openWithKeyboard(page, edit, dialog);
    await page.keyboard.press('Tab'); // Email
    await page.keyboard.press('Tab'); // First Name
    await page.keyboard.type('Keyboard');
    await page.keyboard.press('Enter'); // submits the form
    await expectToast(page, 'Success', 'User updated successfully');
    await dialog.waitFor({ state: 'hidden' });
    await row.getByText('Keyboard').waitFor();
  });

  it("the subscription's Cancel dialog: in, trapped, Escape back, and the cancellation confirmed by keyboard", async () => {
    const { page } = suite;
    const user = await premiumUser();
    await arrive(page, user.token, '/subscription');
    const trigger = page.getByRole('button', { name: 'Cancel Subscription' });
    const dialog = page.getByTestId('cancel-dialog');

    await openWithKeyboard(page, trigger, dialog);
    expect(await seriousViolations(page, 'Cancel dialog')).to.deep.equal([]);
    await expectFocusTrapped(page, dialog);
    await expectEscapeReturnsFocus(page, trigger, dialog);

    await openWithKeyboard(page, trigger, dialog);
    await tabTo(page, dialog, 'Cancel Subscription');
    await page.keyboard.press('Enter');
    await expectToast(page, 'Subscription Cancelled');
  });

  it("the trade form's position-size confirmation: in on Cancel, trapped, Escape places nothing, Place anyway by keyboard", async () => {
    const { page } = suite;
    const user = await premiumUser();
    await arrive(page, user.token, '/');
    const posts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/trades')) posts.push(req.postData() ?? '');
    });
    // 1 ETH is far above 5% of a 10,000 USD portfolio.
    await page.getByTestId('trade-amount-input').fill('1');
    const submit = page.getByTestId('trade-submit');
    const dialog = page.getByTestId('position-size-dialog');

    await openWithKeyboard(page, submit, dialog);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim())).to.equal('Cancel');
    expect(await seriousViolations(page, 'position-size dialog')).to.deep.equal([]);
    await expectFocusTrapped(page, dialog);
    await expectEscapeReturnsFocus(page, submit, dialog);
    expect(posts).to.deep.equal([]);

    await openWithKeyboard(page, submit, dialog);
    await tabTo(page, dialog, 'Place BUY ETH anyway');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('trade-result').waitFor();
    expect(posts).to.have.length(1);
  });
});
