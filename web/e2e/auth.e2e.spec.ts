/**
 * Sign-up, sign-in, the session and the sidebar, in real Chromium against the embedded app
 * (fresh data folder, DEMO_SEED=off, an admin from ADMIN_EMAIL/ADMIN_PASSWORD).
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { StartedApp } from '../../test/app-process';
import { logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { authToken, expectToast, readToast, screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'admin@papertrade.test', password: 'admin-password-1' };

describe('web: sign-up, sign-in and the session (e2e)', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
  let app: StartedApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeEach(() => ({ app, browser, context, page } = suite));

  async function logInThroughForm(email: string, password: string) {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
  }

  /** Logs in through the API and hands the token to the page, as a returning visitor would have it. */
  async function arriveLoggedIn(email: string, password: string, path = '/') {
    const token = await logInViaApi(app.url, email, password);
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto(path);
    await page.getByTestId('user-block').waitFor();
  }

  it('sign-up shows each validation toast in the spec order, then creates the account and goes to /login', async () => {
    const user = uniqueUser('signup');
    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(await page.locator('input[type="email"]').count()).to.equal(1);
    expect(await page.getByTestId('terms-notice').textContent()).to.match(/Terms of Service.*Privacy Policy/);
    const submit = page.getByRole('button', { name: 'Create Account' });

    await submit.click();
    expect(await readToast(page)).to.deep.equal({
      title: 'Missing Information',
      description: 'Please fill in all required fields.',
      variant: 'destructive',
    });
    await screenshot(page, 'signup-validation');

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill('abc');
    await page.getByLabel('Confirm Password').fill('abd');
    await submit.click();
    await expectToast(page, 'Password Mismatch', 'Please make sure your passwords match.');
    expect(await page.getByTestId('toast').count()).to.equal(1);

    await page.getByLabel('Confirm Password').fill('abc');
    await submit.click();
    await expectToast(page, 'Password Too Short', 'Password must be at least 6 characters long.');

    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm Password').fill(user.password);
    await submit.click();
    const welcome = await expectToast(page, 'Welcome to AI Trading Bot!', 'Your account has been created successfully. You can now log in.');
    expect(welcome.variant).not.to.equal('destructive');
    await page.waitForURL('**/login');
    await screenshot(page, 'login-after-signup');
  });

  it('sign-up shows the server problem detail, e.g. a duplicate email', async () => {
    const user = uniqueUser('dup');
    await signUpViaApi(app.url, user);
    await page.goto('/signup');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Username').fill(`${user.username}x`);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByLabel('Confirm Password').fill(user.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    const toast = await expectToast(page, 'Signup Failed');
    expect(toast).to.deep.equal({ title: 'Signup Failed', description: 'Email already registered', variant: 'destructive' });
    expect(page.url()).to.match(/\/signup$/);
  });

  it('sign-in validates, reports a failed login, then logs in with a busy button and shows the user block', async () => {
    const user = uniqueUser('login', { firstName: 'Grace' });
    await signUpViaApi(app.url, user);

    await page.goto('/login');
    const email = page.getByLabel('Email');
    expect(await email.getAttribute('type')).to.equal('email');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Missing Information', 'Please fill in all fields.');

    await logInThroughForm(user.email, 'wrong-password');
    expect(await expectToast(page, 'Login Failed')).to.deep.equal({
      title: 'Login Failed',
      description: 'Invalid email or password',
      variant: 'destructive',
    });
    expect(await authToken(page)).to.equal(null);

    // Hold the login answer to see the busy state.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const busy = page.getByRole('button', { name: 'Signing in...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).to.equal(true);
    release();

    await expectToast(page, 'Welcome back!', 'You have been logged in successfully.');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await authToken(page)).to.be.a('string').and.not.empty;
    const block = page.getByTestId('user-block');
    await block.waitFor();
    expect(await block.getByTestId('user-name').textContent()).to.equal('Grace');
    expect(await block.getByTestId('user-tier').textContent()).to.equal('FREE');
    expect(await page.getByTestId('visitor-actions').count()).to.equal(0);
    expect(await page.getByText('Premium', { exact: true }).count()).to.equal(0);
    await screenshot(page, 'dashboard-logged-in');
  });

  it('the user block falls back to the username when there is no first name', async () => {
    const user = uniqueUser('nofirst');
    await signUpViaApi(app.url, user);
    await arriveLoggedIn(user.email, user.password);
    expect(await page.getByTestId('user-name').textContent()).to.equal(user.username);
  });

  it('logout calls the server, drops the token and the cached user, and goes to /', async () => {
    const user = uniqueUser('logout');
    await signUpViaApi(app.url, user);
    await arriveLoggedIn(user.email, user.password, '/settings');
    const logoutCall = page.waitForRequest((req) => req.url().endsWith('/api/auth/logout') && req.method() === 'POST');
    await page.getByRole('button', { name: 'Logout' }).click();
    await logoutCall;
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('visitor-actions').waitFor();
    expect(await authToken(page)).to.equal(null);
    expect(await page.getByTestId('user-block').count()).to.equal(0);
    // Nothing of the session survives a reload either.
    await page.reload();
    await page.getByTestId('visitor-actions').waitFor();
    expect(await page.getByTestId('user-block').count()).to.equal(0);
  });

  it('a 401 drops the token and the user block at once', async () => {
    // A bogus stored token: `me` answers 401.
    await page.goto('/landing');
    await page.evaluate(() => localStorage.setItem('authToken', 'not-a-real-token'));
    await page.goto('/');
    await page.getByTestId('visitor-actions').waitFor();
    expect(await authToken(page)).to.equal(null);
    expect(await page.getByTestId('user-block').count()).to.equal(0);

    // A token that becomes invalid while the user is on screen: the next request's 401 logs out.
    const user = uniqueUser('expire');
    await signUpViaApi(app.url, user);
    await arriveLoggedIn(user.email, user.password);
    await page.route('**/api/portfolio', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/problem+json',
        body: JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'Token expired' }),
      }),
    );
    await page.getByTestId('visitor-actions').waitFor({ timeout: 15_000 }); // the portfolio polls every 10 s
    expect(await authToken(page)).to.equal(null);
    expect(await page.getByTestId('user-block').count()).to.equal(0);
  });

  it('a 5xx from me keeps the token and shows the logged-out shell', async () => {
    // A real token: the dashboard's other calls (portfolio, trades) send it too, and a 401 from any
    // of them would rightly remove a token the server does not know.
    const user = uniqueUser('kept');
    await signUpViaApi(app.url, user);
    const token = await logInViaApi(app.url, user.email, user.password);
    await page.route('**/api/auth/me', (route) => route.fulfill({ status: 503, body: '' }));
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto('/');
    await page.getByTestId('visitor-actions').waitFor();
    // The dashboard's authenticated reads have answered (with that token) by the time the sidebar's portfolio shows.
    await page.getByTestId('portfolio-total-value').filter({ hasText: /^\$[\d,]+\.\d{2}$/ }).waitFor();
    expect(await authToken(page)).to.equal(token);
    expect(await page.getByTestId('toast').count()).to.equal(0);
  });

  it('shows the Admin Panel entry to admins only', async () => {
    await page.goto('/');
    await page.getByTestId('visitor-actions').waitFor();
    expect(await page.getByRole('link', { name: 'Admin Panel' }).count()).to.equal(0);

    const user = uniqueUser('plain');
    await signUpViaApi(app.url, user);
    await arriveLoggedIn(user.email, user.password);
    expect(await page.getByRole('link', { name: 'Admin Panel' }).count()).to.equal(0);

    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await arriveLoggedIn(ADMIN.email, ADMIN.password);
    const adminLink = page.getByRole('link', { name: 'Admin Panel' });
    expect(await adminLink.count()).to.equal(1);
    await adminLink.click();
    await page.waitForURL('**/admin');
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
    await screenshot(page, 'admin-sidebar');
  });

  it('shows visitors the sidebar with Premium badges, Login and Signup', async () => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.waitFor();
    const aside = page.getByRole('complementary', { name: 'Sidebar' });
    expect(await aside.getByText('AI Trading Assistant', { exact: true }).isVisible()).to.equal(true);
    const labels = await nav.getByRole('link').allTextContents();
    expect(labels.map((l) => l.replace('Premium', '').trim())).to.deep.equal([
      'Dashboard',
      'AI Signals',
      'Trade History',
      'Backtesting',
      'Risk Management',
      'API Integration',
      'Subscription',
      'Settings',
    ]);
    const badged = await nav.getByRole('link').filter({ hasText: 'Premium' }).allTextContents();
    expect(badged.map((l) => l.replace('Premium', '').trim())).to.deep.equal(['AI Signals', 'Backtesting', 'API Integration']);
    const visitor = page.getByTestId('visitor-actions');
    expect(await visitor.getByRole('link', { name: 'Login' }).getAttribute('href')).to.equal('/login');
    expect(await visitor.getByRole('link', { name: 'Signup' }).getAttribute('href')).to.equal('/signup');
    await screenshot(page, 'dashboard-visitor');
  });

  it('shows a full-screen spinner instead of every route while me is pending', async () => {
    const user = uniqueUser('spin');
    await signUpViaApi(app.url, user);
    await arriveLoggedIn(user.email, user.password);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/trade-history');
    const spinner = page.getByTestId('full-screen-spinner');
    await spinner.waitFor();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).to.equal(0);
    expect(await page.getByRole('heading', { level: 1 }).count()).to.equal(0);
    await screenshot(page, 'spinner');
    release();
    await page.getByTestId('user-block').waitFor();
    await spinner.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Trade History', level: 1 }).waitFor();
  });
});
