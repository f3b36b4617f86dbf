/**
 * The Admin Panel in real Chromium against the embedded app: access by role (visitor and free user
 * restricted, auditor read-only), the admin edit ('Saving...', the success toast, the table updated),
 * the server-side search, and the auditor role granted from the panel; a row's Audit opens the Audit
 * tab on that user, for an auditor too.
 */
import { expect } from 'chai';
import type { Page, Route } from 'playwright-core';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { getViaApi, logInViaApi, signUpViaApi, uniqueUser, type NewUser } from './support/api';
import { expectToast, screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'panel-admin@example.com', password: 'panel-admin-pass' };
const RESTRICTED = 'This panel is only accessible to administrators.';

describe('web: Admin Panel (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  let app: StartedApp;
  let page: Page;

  beforeEach(() => ({ app, page } = suite));

  async function openAs(token: string | null) {
    await page.goto('/landing');
    if (token) await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
  }

  async function newUser(prefix: string, extra: Partial<NewUser> = {}) {
    const user = uniqueUser(prefix, extra);
    const { userId } = await signUpViaApi(app.url, user);
    return { ...user, userId, token: await logInViaApi(app.url, user.email, user.password) };
  }

  const rows = () => page.getByTestId('admin-user-row');
  const row = (userId: string) => page.locator(`[data-testid="admin-user-row"][data-user-id="${userId}"]`);

  it('shows visitors and free users Access Restricted, and sends no admin query', async () => {
    const adminCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/admin')) adminCalls.push(r.url());
    });
    await openAs(null);
    await page.getByText('Access Restricted', { exact: true }).waitFor();
    await page.getByText(RESTRICTED, { exact: true }).waitFor();
    const free = await newUser('restricted');
    await openAs(free.token);
    await page.getByText(RESTRICTED, { exact: true }).waitFor();
    await screenshot(page, 'admin-access-restricted');
    expect(await page.getByTestId('admin-users-table').count()).to.equal(0);
    expect(adminCalls).to.deep.equal([]);
  });

  it('lets an admin edit a user: Saving... while busy, the success toast, the dialog closed and the table updated', async () => {
    const target = await newUser('edited', { firstName: 'Edith' });
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await openAs(adminToken);
    await page.getByTestId('stat-total-users').getByText(/^\d+$/).waitFor();
    const premiumBefore = Number(await page.getByTestId('stat-premium-users').locator('strong').textContent());
    await row(target.userId).waitFor();
    await screenshot(page, 'admin-panel');

    // Hold the PUT until 'Saving...' has been seen, so the busy state is observed, not raced.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/api/admin/users/*', async (route: Route) => {
      if (route.request().method() === 'PUT') await released;
      await route.continue();
    });
    await row(target.userId).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await dialog.waitFor();
    await dialog.getByLabel('Last Name').fill('Renamed');
    await dialog.getByLabel('Subscription').selectOption('PREMIUM');
    expect(await dialog.getByLabel('Status').locator('option').allTextContents()).to.deep.equal(['ACTIVE', 'INACTIVE', 'CANCELLED', 'EXPIRED']);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByRole('button', { name: 'Saving...' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Saving...' }).isDisabled()).to.equal(true);
    await screenshot(page, 'admin-edit-saving');
    release();

    const toast = await expectToast(page, 'Success', 'User updated successfully');
    expect(toast.variant).to.equal('success');
    await dialog.waitFor({ state: 'detached' });
    await row(target.userId).getByText('Edith Renamed', { exact: true }).waitFor();
    await row(target.userId).getByText('PREMIUM', { exact: true }).waitFor();
    await page.getByTestId('stat-premium-users').getByText(String(premiumBefore + 1), { exact: true }).waitFor();
    await screenshot(page, 'admin-edit-success');
  });

  it('shows the server message in an Error toast when an edit fails', async () => {
    const first = await newUser('taken');
    const second = await newUser('taker');
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await openAs(adminToken);
    await row(second.userId).getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await dialog.getByLabel('Email').fill(first.email);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    const toast = await expectToast(page, 'Error');
    expect(toast.variant).to.equal('destructive');
    expect(toast.description).to.match(/in use|taken|already/i);
    // The dialog stays open for a correction.
    expect(await dialog.isVisible()).to.equal(true);

    // No client-side validation (spec section 5): a malformed email goes to the server, whose 400 is the toast.
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname === `/api/admin/users/${second.userId}`) puts.push(r.postData() ?? '');
    });
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    const invalid = await expectToast(page, 'Error', 'email: must be a valid email address');
    expect(invalid.variant).to.equal('destructive');
    expect(puts.map((body) => JSON.parse(body).email)).to.deep.equal(['not-an-email']);
    await screenshot(page, 'admin-edit-error');
  });

  it('searches on the server: typing filters the table, and a miss shows No users found', async () => {
    const tag = `zq${Date.now().toString(36)}`;
    const match = await newUser(tag, { firstName: 'Searchable' });
    await newUser('other');
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await openAs(adminToken);
    await rows().first().waitFor();
    const search = page.getByRole('searchbox', { name: 'Search users' });
    const requested = page.waitForRequest((r) => new URL(r.url()).searchParams.get('q') === tag);
    await search.fill(tag);
    await requested;
    await waitUntil(async () => (await rows().count()) === 1 && (await row(match.userId).count()) === 1, { message: 'only the match to be listed' });
    expect(await page.getByTestId('admin-users-total').textContent()).to.equal('1 users');
    await screenshot(page, 'admin-search');
    await search.fill(`${tag}-nobody`);
    await page.getByText('No users found', { exact: true }).waitFor();
    expect(await rows().count()).to.equal(0);
  });

  it('gives an auditor the read-only view (no Edit, an Audit on each row), after an admin grants the role from the panel', async () => {
    const auditor = await newUser('auditor');
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await openAs(adminToken);
    await row(auditor.userId).getByRole('button', { name: 'Make Auditor' }).click();
    await expectToast(page, 'Success', 'Auditor role granted');
    await row(auditor.userId).getByRole('button', { name: 'Revoke Auditor' }).waitFor();
    await waitUntil(
      async () => ((await getViaApi(app.url, '/api/auth/me', { Authorization: `Bearer ${auditor.token}` })) as { isAuditor?: boolean }).isAuditor === true,
      { message: 'the auditor role to reach the read model' },
    );

    await openAs(auditor.token);
    await rows().first().waitFor();
    await page.getByTestId('stat-total-users').getByText(/^\d+$/).waitFor();
    expect(await page.getByText(RESTRICTED).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Edit' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Make Auditor' }).count()).to.equal(0);
    expect(await page.getByRole('tab', { name: 'Audit' }).count()).to.equal(1);
    await screenshot(page, 'admin-auditor-readonly');

    // Reading changes nothing: each row's Audit opens the Audit tab on that user, for an auditor too.
    expect(await rows().first().getByRole('button', { name: 'Audit', exact: true }).count()).to.equal(1);
    await row(auditor.userId).getByRole('button', { name: 'Audit', exact: true }).click();
    expect(await page.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected')).to.equal('true');
    await page.locator('[aria-label="Audited user"]').getByText(auditor.email, { exact: true }).waitFor();
    await page.getByRole('table', { name: 'Audit timeline' }).waitFor();
  });
});
