/**
 * The Admin Panel's Audit tab in real Chromium against the embedded app (issue 9, "browser tests
 * for ... the audit timeline"; issue 16, item 6): an admin opens the audit of a user who traded
 * through the API, bought Premium through the test checkout and cancelled it, from that user's row
 * (Audit); sees the timeline in order with its types and times, pages through it, downloads a page as
 * CSV, and chooses an as-of second, the one of the first trade, to see the portfolio and subscription
 * as they were at its end (what GET /api/audit/... rebuilt for that time). An auditor granted by an
 * admin finds a user by email in the tab's search (Audit on the match), and by the raw user id; a
 * plain user meets Access Restricted.
 */
import fs from 'node:fs';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { portfolioAsOfResponseSchema, timelineResponseSchema, type TimelineResponse } from '@papertrade/domain/audit/contracts';
import { checkoutResponseSchema } from '@papertrade/domain/subscription/contracts';
import { placeTradeResponseSchema } from '@papertrade/domain/trading/contracts';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { callAs, getViaApi, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'audit-admin@example.com', password: 'audit-admin-pass' };
const RESTRICTED = 'This panel is only accessible to administrators.';
/** The tab's page size (web/src/features/audit/api/get-audit.ts). */
const PAGE_SIZE = 25;
/** Trades placed after the upgrade, so that the timeline runs over two pages. */
const FILLER_TRADES = 20;

describe('web: the Audit tab of the Admin Panel (e2e)', function () {
  this.timeout(180_000);
  // No market ticks after the start: the risk monitor acts on ticks, and an alert it raised (a
  // position above 5 % of the portfolio, a volatile coin) would join a timeline between the API's
  // read and the screen's, which the test compares.
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, MARKET_TICK_MS: '3600000' } });
  let app: StartedApp;
  let page: Page;

  beforeEach(() => ({ app, page } = suite));

  async function newUser(prefix: string) {
    const user = uniqueUser(prefix);
    const { userId } = await signUpViaApi(app.url, user);
    return { ...user, userId, token: await logInViaApi(app.url, user.email, user.password) };
  }

  const adminToken = () => logInViaApi(app.url, ADMIN.email, ADMIN.password);
  const trade = async (token: string, symbol: string, amount: number) => placeTradeResponseSchema.parse(await callAs(app.url, token, 'POST', '/api/trades', { symbol, type: 'BUY', amount }));

  /** Premium through the built-in test checkout, as the browser would: checkout, the test page's Pay, then the success call. */
  async function buyPremium(token: string) {
    const { url, sessionId, test } = checkoutResponseSchema.parse(await callAs(app.url, token, 'POST', '/api/subscription/checkout', { tier: 'PREMIUM' }));
    expect(test).to.equal(true);
    // The Pay button's script sends the owner's sign-in (issue 16 item 14).
    const pay = await fetch(`${url}/pay`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(pay.status).to.equal(200);
    await callAs(app.url, token, 'POST', '/api/subscription/success', { sessionId });
  }

  async function timelinePage(token: string, userId: string, n: number): Promise<TimelineResponse> {
    return timelineResponseSchema.parse(await getViaApi(app.url, `/api/audit/users/${userId}/timeline?page=${n}&pageSize=${PAGE_SIZE}`, { Authorization: `Bearer ${token}` }));
  }

  async function openAdmin(token: string) {
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Panel', level: 1 }).waitFor();
  }

  async function openAuditTab(token: string) {
    await openAdmin(token);
    await page.getByRole('tab', { name: 'Audit' }).click();
    await page.getByTestId('audit-tab-panel').waitFor();
  }

  /** The raw user id, for an auditor who has one. */
  async function showUser(userId: string) {
    await page.getByLabel('User ID').fill(userId);
    await page.getByRole('button', { name: 'Show history' }).click();
  }

  /** Whom the tab shows: its header names the user. */
  const audited = () => page.locator('[aria-label="Audited user"]');
  const auditedId = () => page.getByTestId('audited-user-id');

  const timelineRows = () => page.getByRole('table', { name: 'Audit timeline' }).locator('tbody tr');
  /** Each row as [time, category, type, position]. */
  async function readRows(): Promise<string[][]> {
    return timelineRows().evaluateAll((rows) => rows.map((r) => [0, 1, 2, 4].map((i) => r.children[i]?.textContent ?? '')));
  }
  const expectedRows = (res: TimelineResponse) => res.entries.map((e) => [e.time, e.category, e.type, e.position]);
  const pageLabel = () => page.getByRole('navigation', { name: 'Timeline pages' });
  const portfolio = () => page.locator('[aria-label="Portfolio as of"]');
  const subscription = () => page.locator('[aria-label="Subscription as of"]');
  const ddAfter = (scope: Locator, term: string) => scope.locator(`dt:text-is("${term}") + dd`);

  it("opens from a user's row (Audit): the timeline in order, paged and downloaded, and the portfolio and subscription as of the first trade's second", async () => {
    const target = await newUser('audited');
    const firstTrade = await trade(target.token, 'ETH', 0.5);
    // The as-of input reads to the second, and "as of" a second takes in all of it: choose the first
    // trade's second, and place the second trade in a later one.
    const asOfSecond = Math.floor(Date.parse(firstTrade.timestamp) / 1000) * 1000;
    const asOfMs = asOfSecond + 999;
    await waitUntil(() => Date.now() > asOfMs + 50, { message: 'a second after the first trade' });
    await trade(target.token, 'BTC', 0.01);
    await buyPremium(target.token);
    for (let i = 0; i < FILLER_TRADES; i += 1) await trade(target.token, 'SOL', 0.1);
    await callAs(app.url, target.token, 'POST', '/api/subscription/cancel');

    const admin = await adminToken();
    const first = await timelinePage(admin, target.userId, 1);
    const second = await timelinePage(admin, target.userId, 2);
    expect(first.totalPages).to.equal(2);
    // The API's order is the global order; its times follow it.
    const all = [...first.entries, ...second.entries];
    expect(all.map((e) => e.position)).to.deep.equal([...all.map((e) => e.position)].sort());
    expect(all.map((e) => Date.parse(e.time))).to.deep.equal(all.map((e) => Date.parse(e.time)).sort((a, b) => a - b));
    const trades = all.filter((e) => e.type === 'SimulatedTradePlaced');
    expect(trades.map((e) => e.data.symbol)).to.deep.equal(['ETH', 'BTC', ...Array<string>(FILLER_TRADES).fill('SOL')]);
    const subscriptionTypes = all.filter((e) => e.category === 'subscription').map((e) => e.type);
    expect(subscriptionTypes.slice(-2)).to.deep.equal(['SubscriptionActivated', 'SubscriptionCancelled']);
    expect(Date.parse(trades[0]!.time)).to.be.below(asOfMs);
    expect(Date.parse(trades[1]!.time)).to.be.above(asOfMs);

    // From the user's row in the Users tab, at once after the last write: the default as-of is now,
    // and the second being lived counts up to now (it used to end at the second's start).
    await openAdmin(admin);
    const row = page.locator(`[data-testid="admin-user-row"][data-user-id="${target.userId}"]`);
    await row.getByRole('button', { name: 'Audit', exact: true }).click();
    expect(await page.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected')).to.equal('true');
    await audited().getByText(target.username, { exact: true }).waitFor();
    await audited().getByText(target.email, { exact: true }).waitFor();
    expect(await auditedId().textContent()).to.equal(target.userId);
    await pageLabel().getByText(`Page 1 of 2 (${first.total} events)`, { exact: true }).waitFor();
    expect(await readRows()).to.deep.equal(expectedRows(first));
    // The details column says what the event did: the first trade's side, quantity, coin and price.
    expect(await timelineRows().filter({ hasText: 'SimulatedTradePlaced' }).first().locator('td').nth(3).textContent()).to.match(/^BUY 0\.5 ETH @ [\d.]+$/);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).to.equal(true);
    await screenshot(page, 'audit-timeline', { fullPage: true });

    await page.getByRole('button', { name: 'Next' }).click();
    await pageLabel().getByText(`Page 2 of 2 (${first.total} events)`, { exact: true }).waitFor();
    expect(await readRows()).to.deep.equal(expectedRows(second));
    expect((await readRows()).at(-1)?.[2]).to.equal('SubscriptionCancelled');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);

    // The CSV of the page on screen, as the server writes it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).to.equal(`timeline-${target.userId}-page-2.csv`);
    const csv = fs.readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r\n/);
    expect(csv[0]).to.equal('position,time,category,streamId,revision,type,data,metadata');
    expect(csv.slice(1).map((line) => line.split(',').slice(0, 2))).to.deep.equal(second.entries.map((e) => [e.position, e.time]));
    expect(csv.at(-1)).to.include(',SubscriptionCancelled,');

    // As of now (the tab's default): everything bought, Premium with its end date after the cancel.
    await portfolio().locator('[aria-label="Positions held"] li').nth(2).waitFor();
    expect(await portfolio().locator('[aria-label="Positions held"] li').evaluateAll((li) => li.map((l) => l.textContent?.split(' ').slice(0, 2).join(' ')))).to.have.members(['ETH 0.5', 'BTC 0.01', 'SOL 2']);
    await subscription().getByText('PREMIUM (ACTIVE)', { exact: true }).waitFor();
    await subscription().getByText(/^Access ends /).waitFor();

    // As of the first trade's second, all of it: only the ETH bought, the cash the replay computes, still Free.
    const asOfIso = new Date(asOfMs).toISOString();
    const then = portfolioAsOfResponseSchema.parse(await getViaApi(app.url, `/api/audit/users/${target.userId}/portfolio?asOf=${encodeURIComponent(asOfIso)}`, { Authorization: `Bearer ${admin}` }));
    expect(then.state.positions.map((p) => [p.symbol, p.units])).to.deep.equal([['ETH', 50_000_000]]);
    expect(then.valuation.cash).to.be.below(then.valuation.startingCash);
    const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    // The input is in the browser's local time: its own clock formats it (no named helpers in
    // page.evaluate, which the test runner's transform would wrap).
    const localInput = await page.evaluate((ms) => {
      const d = new Date(ms);
      return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()]
        .map((n) => String(n).padStart(2, '0'))
        .reduce((out, part, i) => out + (i === 0 ? '' : i < 3 ? '-' : i === 3 ? 'T' : ':') + part, '');
    }, asOfSecond);
    await page.getByLabel('As of (your local time)').fill(localInput);
    await page.getByTestId('audit-as-of-resolved').getByText(`Replayed from every event up to ${asOfIso} (UTC), that second included`, { exact: true }).waitFor();
    await ddAfter(portfolio(), 'Cash').getByText(usd(then.valuation.cash), { exact: true }).waitFor();
    expect(await portfolio().locator('[aria-label="Positions held"] li').allTextContents()).to.deep.equal([`ETH 0.5 (cost ${usd(then.state.positions[0]!.costBasisMicros / 1e6)}, opened ${then.state.positions[0]!.openedAt})`]);
    expect(await ddAfter(portfolio(), 'Total value').textContent()).to.equal(usd(then.valuation.totalValue));
    await portfolio().getByText(`Portfolio events: built from ${then.events.length} event${then.events.length === 1 ? '' : 's'}`).waitFor();
    await subscription().getByText('FREE (ACTIVE)', { exact: true }).waitFor();
    await screenshot(page, 'audit-as-of', { fullPage: true });
  });

  it('opens for an auditor granted by an admin through the API: a user found by email, and by the raw id', async () => {
    const target = await newUser('audited');
    await trade(target.token, 'ETH', 0.25);
    const auditor = await newUser('auditor');
    await callAs(app.url, await adminToken(), 'PUT', `/api/admin/users/${auditor.userId}/auditor`, { auditor: true });
    await waitUntil(
      async () => ((await getViaApi(app.url, '/api/auth/me', { Authorization: `Bearer ${auditor.token}` })) as { isAuditor?: boolean }).isAuditor === true,
      { message: 'the auditor role to reach the read model' },
    );
    const expected = await timelinePage(auditor.token, target.userId, 1);

    await openAuditTab(auditor.token);
    await page.getByText('Find a user by email or username, open one from the Users tab with Audit, or enter a user ID.', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Find a user by email or username' }).fill(target.email);
    const match = page.locator(`[data-testid="audit-match"][data-user-id="${target.userId}"]`);
    await match.getByText(target.username, { exact: true }).waitFor();
    expect(await page.getByRole('table', { name: 'Matching users' }).locator('tbody tr').count()).to.equal(1);
    await screenshot(page, 'audit-search', { fullPage: true });
    await match.getByRole('button', { name: 'Audit', exact: true }).click();
    await audited().getByText(target.email, { exact: true }).waitFor();
    await pageLabel().getByText(`Page 1 of 1 (${expected.total} events)`, { exact: true }).waitFor();
    expect(await readRows()).to.deep.equal(expectedRows(expected));
    expect((await readRows()).map((r) => r[2])).to.include('SimulatedTradePlaced');
    await portfolio().locator('[aria-label="Positions held"] li').filter({ hasText: /^ETH 0\.25 / }).waitFor();
    await screenshot(page, 'audit-auditor', { fullPage: true });

    // The raw id of someone else: the tab shows that user, named by the id alone.
    const other = await newUser('audited');
    await trade(other.token, 'BTC', 0.01);
    await showUser(other.userId);
    await page.getByTestId('audited-user-id').getByText(other.userId, { exact: true }).waitFor();
    await portfolio().locator('[aria-label="Positions held"] li').filter({ hasText: /^BTC 0\.01 / }).waitFor();
    expect(await audited().getByText(target.email).count()).to.equal(0);
  });

  it('shows a plain user Access Restricted, without the Audit tab, and the API refuses them', async () => {
    const target = await newUser('audited');
    const plain = await newUser('plain');
    const auditCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/audit')) auditCalls.push(r.url());
    });
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), plain.token);
    await page.goto('/admin');
    await page.getByText('Access Restricted', { exact: true }).waitFor();
    await page.getByText(RESTRICTED, { exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'Audit' }).count()).to.equal(0);
    expect(auditCalls).to.deep.equal([]);
    await screenshot(page, 'audit-access-restricted');
    const res = await fetch(new URL(`/api/audit/users/${target.userId}/timeline`, app.url), { headers: { Authorization: `Bearer ${plain.token}` } });
    expect(res.status).to.equal(403);
  });
});
