/**
 * Risk Management and Trade History in real Chromium against the embedded app (issue 8, "Browser
 * tests"): a premium user's risk parameters change and survive a reload; a free user sees them
 * read-only with 'Basic'; risk alerts raised by the risk monitor are acknowledged (dimmed) and
 * cleared, and those about the positions are resolved by a reset (dimmed, with the reason); trades
 * placed through POST /api/trades are listed, the tabs and the filter narrow them on the server,
 * paging walks them, and Export downloads them as CSV; the screen states the FIFO lot rule, what is
 * left of a BUY partly sold, and a dash for Win Rate until a trade closes; a visitor sees a login
 * prompt and dashes. Premium is granted as an administrator would, through PUT /api/admin/users/{id}.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import type { StartedApp } from '../../test/app-process';
import { waitUntil } from '../../test/wait';
import { callAs, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { expectToast, screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'risk-admin@papertrade.test', password: 'admin-password-1' };

interface Account {
  userId: string;
  token: string;
}

describe('web: risk management and trade history (e2e)', function () {
  this.timeout(180_000);
  // A fast market, so the risk monitor sees a tick soon after a trade.
  const suite = useBrowserSuite({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, MARKET_TICK_MS: '500' } });
  let app: StartedApp;
  let page: Page;

  beforeEach(() => ({ app, page } = suite));

  async function account(prefix: string, premium: boolean): Promise<Account> {
    const user = uniqueUser(prefix);
    const { userId } = await signUpViaApi(app.url, user);
    if (premium) {
      const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
      await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    }
    return { userId, token: await logInViaApi(app.url, user.email, user.password) };
  }

  async function arrive(token: string, path: string) {
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto(path);
    await page.getByTestId('user-block').waitFor();
  }

  const h1 = () => page.getByRole('heading', { level: 1 });
  const param = (name: string) => page.getByTestId(`risk-param-${name}`);

  it('a premium user changes risk parameters, each change is sent at once, and they survive a reload', async () => {
    const premium = await account('riskp', true);
    const puts: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'PUT' && req.url().endsWith('/api/risk/parameters')) puts.push(req.postData() ?? '');
    });
    await arrive(premium.token, '/risk-management');
    expect(await h1().textContent()).to.equal('Risk Management');
    for (const tab of ['Parameters', 'Active Trades', 'Risk Alerts', 'Calculator']) await page.getByRole('tab', { name: tab }).waitFor();
    // The section 9 defaults, editable, with the section 5 bounds and steps.
    await page.waitForFunction(() => (document.querySelector('[data-testid="risk-param-maxDailyLoss"]') as HTMLInputElement | null)?.value === '500');
    expect(await param('maxDailyLoss').isEnabled()).to.equal(true);
    expect(await param('maxDailyLoss').getAttribute('min')).to.equal('50');
    expect(await param('maxDailyLoss').getAttribute('max')).to.equal('10000');
    expect(await param('maxDailyLoss').getAttribute('step')).to.equal('50');
    expect(await param('volatilityThreshold').getAttribute('step')).to.equal('5');
    expect(await page.getByTestId('basic-badge').count()).to.equal(0);

    // Out of bounds: shown as such, nothing sent.
    await param('maxDailyLoss').fill('5');
    await page.getByText('must be a number from 50 to 10000').waitFor();
    expect(puts).to.have.length(0);

    await param('maxDailyLoss').fill('750');
    await expectToast(page, 'Success', 'Risk parameters updated');
    await param('maxConcurrentTrades').fill('3');
    await param('stopLossType').selectOption('trailing');
    await param('kellyCriterionEnabled').check();
    await waitUntil(() => puts.length >= 4, { message: 'four PUTs' });
    const last = JSON.parse(puts[puts.length - 1]!) as Record<string, unknown>;
    expect(last).to.include({ maxDailyLoss: 750, maxConcurrentTrades: 3, stopLossType: 'trailing', kellyCriterionEnabled: true, maxPositionSize: 5 });
    // The server has them (read through the query side), not just the page.
    await waitUntil(
      async () => {
        const p = (await callAs(app.url, premium.token, 'GET', '/api/risk/parameters')) as Record<string, unknown>;
        return p.maxDailyLoss === 750 && p.maxConcurrentTrades === 3 && p.stopLossType === 'trailing' && p.kellyCriterionEnabled === true;
      },
      { message: 'the parameters stored' },
    );
    await screenshot(page, 'risk-parameters-premium');

    await page.reload();
    await page.waitForFunction(() => (document.querySelector('[data-testid="risk-param-maxDailyLoss"]') as HTMLInputElement | null)?.value === '750');
    expect(await param('maxConcurrentTrades').inputValue()).to.equal('3');
    expect(await param('stopLossType').inputValue()).to.equal('trailing');
    expect(await param('kellyCriterionEnabled').isChecked()).to.equal(true);
    expect(await param('dynamicPositionSizing').isChecked()).to.equal(false);

    // A refused change: the error toast of section 8, and the input shows the stored value again.
    await page.route('**/api/risk/parameters', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 403, contentType: 'application/problem+json', body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Premium subscription required' }) })
        : route.continue(),
    );
    await param('maxDrawdown').fill('20');
    await expectToast(page, 'Error', 'Failed to update risk parameters: Premium subscription required');
    await page.waitForFunction(() => (document.querySelector('[data-testid="risk-param-maxDrawdown"]') as HTMLInputElement | null)?.value === '15');
  });

  it('a free user sees the parameters read-only with a Basic badge, and Premium Required on the premium tabs', async () => {
    const free = await account('riskf', false);
    await arrive(free.token, '/risk-management');
    await page.getByTestId('basic-badge').filter({ hasText: 'Basic' }).waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="risk-param-maxPositionSize"]') as HTMLInputElement | null)?.value === '5');
    for (const name of ['maxPositionSize', 'maxDailyLoss', 'volatilityThreshold', 'stopLossType', 'kellyCriterionEnabled']) {
      expect(await param(name).isDisabled(), name).to.equal(true);
    }
    await screenshot(page, 'risk-parameters-free');
    await page.getByRole('tab', { name: 'Risk Alerts' }).click();
    await page.getByTestId('risk-premium-required').getByRole('link', { name: 'Upgrade to Premium' }).waitFor();
    // The calculators work for everyone, locally.
    await page.getByRole('tab', { name: 'Calculator' }).click();
    await page.getByTestId('calc-entry').fill('2000');
    await page.getByTestId('calc-stop').fill('1960');
    await page.getByTestId('calc-quantity').filter({ hasText: '5.0000' }).waitFor();
    expect(await page.getByTestId('calc-risk-amount').textContent()).to.equal('$200.00');
    await page.getByTestId('sl-entry').fill('2000');
    await page.getByTestId('sl-stop').filter({ hasText: '$1,960.00' }).waitFor();
    expect(await page.getByTestId('sl-target').textContent()).to.equal('$2,080.00');
  });

  it('risk alerts raised by the risk monitor are acknowledged (dimmed) and cleared in bulk', async () => {
    const premium = await account('riska', true);
    // Arrange conditions the risk monitor reports: any position is above a 0.1 percent maximum
    // size, and two open positions are above one concurrent trade.
    const parameters = (await callAs(app.url, premium.token, 'GET', '/api/risk/parameters')) as Record<string, unknown>;
    delete parameters.customised;
    await callAs(app.url, premium.token, 'PUT', '/api/risk/parameters', { ...parameters, maxPositionSize: 0.1, maxConcurrentTrades: 1 });
    // ETH with the trade form's stop loss (2 %) and take profit (5 %); BTC without (issue 17: a manual
    // position keeps no automatic exit unless its person sets one).
    await callAs(app.url, premium.token, 'POST', '/api/trades', { symbol: 'ETH', type: 'BUY', amount: 0.5, stopLossPercent: 2, takeProfitPercent: 5 });
    await callAs(app.url, premium.token, 'POST', '/api/trades', { symbol: 'BTC', type: 'BUY', amount: 0.01 });

    await arrive(premium.token, '/risk-management');
    // Active Trades: the two open positions, with the levels each really has.
    await page.getByRole('tab', { name: 'Active Trades' }).click();
    await waitUntil(async () => (await page.getByTestId('active-trade-row').count()) === 2, { message: 'two open positions' });
    const open = (await callAs(app.url, premium.token, 'GET', '/api/risk/active-trades')) as { trades: Array<{ symbol: string; entryPrice: number; stopLoss: number | null }> };
    const eth = open.trades.find((t) => t.symbol === 'ETH')!;
    expect(eth.stopLoss).to.be.closeTo(eth.entryPrice * 0.98, 0.01);
    const ethRow = page.getByTestId('active-trade-row').filter({ hasText: 'ETH' });
    expect(await ethRow.locator('td').nth(4).textContent()).to.equal(eth.stopLoss!.toLocaleString('en-US', { style: 'currency', currency: 'USD' }));
    expect(await ethRow.getByTestId('active-trade-rule').textContent()).to.equal('Manual: stop 2% below entry, target 5% above');
    const btcRow = page.getByTestId('active-trade-row').filter({ hasText: 'BTC' });
    expect(await btcRow.getByTestId('active-trade-stop').textContent()).to.equal('—');
    expect(await btcRow.getByTestId('active-trade-rule').textContent()).to.equal('No automatic exit (manual position)');
    await screenshot(page, 'risk-active-trades');

    await page.getByRole('tab', { name: 'Risk Alerts' }).click();
    // Three conditions hold: the ETH and the BTC position sizes, and two positions open. The monitor
    // sees them on the coins' next ticks.
    const alerts = page.getByTestId('risk-alert');
    // (At least: a volatility or drawdown alert of the simulated market may join them.)
    await waitUntil(async () => (await alerts.filter({ hasText: 'position is' }).count()) === 2 && (await alerts.filter({ hasText: '2 positions are open' }).count()) === 1, {
      timeoutMs: 60_000,
      message: 'the three alerts of the arranged conditions from the risk monitor',
    });
    const shown = await alerts.count();
    expect(await page.getByRole('button', { name: /^Clear Acknowledged/ }).isDisabled()).to.equal(true);

    const concurrent = alerts.filter({ hasText: '2 positions are open, above the maximum of 1' });
    expect(await concurrent.getAttribute('data-severity')).to.equal('high');
    const alertId = (await concurrent.getAttribute('data-alert-id'))!;
    const byId = page.locator(`[data-alert-id="${alertId}"]`);
    await concurrent.getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator(`[data-alert-id="${alertId}"][data-acknowledged="true"]`).waitFor();
    expect(await byId.evaluate((el) => getComputedStyle(el).opacity)).to.equal('0.5');
    // Only that one: the others stay bright and can still be acknowledged.
    expect(await page.locator('[data-testid="risk-alert"][data-acknowledged="false"]').count()).to.equal(shown - 1);
    expect(await page.locator('[data-testid="risk-alert"][data-acknowledged="false"]').first().evaluate((el) => getComputedStyle(el).opacity)).to.equal('1');
    await screenshot(page, 'risk-alerts-acknowledged');

    await page.getByRole('button', { name: 'Clear Acknowledged (1)' }).click();
    await byId.waitFor({ state: 'detached' });
    // The server no longer lists it; the two unacknowledged ones stay. (The condition still holds, so
    // the monitor may raise it again as a new alert: a different id, unacknowledged.)
    const server = (await callAs(app.url, premium.token, 'GET', '/api/risk/alerts')) as { alerts: Array<{ id: string; acknowledged: boolean; message: string }> };
    expect(server.alerts.map((a) => a.id)).to.not.include(alertId);
    expect(server.alerts.filter((a) => a.acknowledged)).to.have.length(0);
    expect(server.alerts.filter((a) => a.message.includes('position is'))).to.have.length(2);
  });

  it('a reset resolves the alerts about the positions it discards: shown resolved (dimmed, with the reason), no longer counted on the dashboard', async () => {
    const premium = await account('riskr', true);
    const parameters = (await callAs(app.url, premium.token, 'GET', '/api/risk/parameters')) as Record<string, unknown>;
    delete parameters.customised;
    await callAs(app.url, premium.token, 'PUT', '/api/risk/parameters', { ...parameters, maxPositionSize: 0.1, maxConcurrentTrades: 1 });
    await callAs(app.url, premium.token, 'POST', '/api/trades', { symbol: 'ETH', type: 'BUY', amount: 0.5 });
    await callAs(app.url, premium.token, 'POST', '/api/trades', { symbol: 'BTC', type: 'BUY', amount: 0.01 });

    await arrive(premium.token, '/risk-management');
    await page.getByRole('tab', { name: 'Risk Alerts' }).click();
    const alerts = page.getByTestId('risk-alert');
    await waitUntil(async () => (await alerts.filter({ hasText: 'position is' }).count()) === 2 && (await alerts.filter({ hasText: '2 positions are open' }).count()) === 1, {
      timeoutMs: 60_000,
      message: 'the three alerts of the arranged conditions from the risk monitor',
    });
    const concurrentId = (await alerts.filter({ hasText: '2 positions are open' }).getAttribute('data-alert-id'))!;
    await callAs(app.url, premium.token, 'POST', '/api/bot/reset');

    // The tab's next poll: every alert about the positions is resolved, dimmed, says why, and asks for nothing.
    const concurrent = page.locator(`[data-alert-id="${concurrentId}"]`);
    await page.locator(`[data-alert-id="${concurrentId}"][data-resolved="true"]`).waitFor({ timeout: 15_000 });
    expect(await concurrent.getByTestId('risk-alert-resolution').textContent()).to.match(/^Resolved: the portfolio was reset · /);
    expect(await concurrent.evaluate((el) => getComputedStyle(el).opacity)).to.equal('0.5');
    expect(await concurrent.getByRole('button', { name: 'Acknowledge' }).count()).to.equal(0);
    await waitUntil(async () => (await alerts.filter({ hasText: 'position is' }).and(page.locator('[data-resolved="true"]')).count()) === 2, { message: 'the position size alerts resolved' });
    const server = (await callAs(app.url, premium.token, 'GET', '/api/risk/alerts')) as { alerts: Array<{ id: string; resolved: boolean; kind: string }>; unacknowledged: number };
    expect(server.alerts.filter((a) => !a.resolved).map((a) => a.kind)).to.deep.equal([]);
    expect(server.unacknowledged).to.equal(0);
    await page.getByRole('button', { name: `Clear Acknowledged (${server.alerts.length})` }).waitFor();
    await screenshot(page, 'risk-alerts-resolved-by-reset');

    // The dashboard's risk overview counts none of them and shows none as the most severe.
    await page.goto('/');
    await page.getByTestId('risk-overview-alert').getByText('No active risk alerts', { exact: true }).waitFor();
  });

  it('Trade History lists trades placed via POST /api/trades; tabs and the filter narrow them on the server; export downloads a CSV', async () => {
    const trader = await account('hist', false);
    const placed: Array<{ symbol: string; type: 'BUY' | 'SELL'; amount: number }> = [
      { symbol: 'ETH', type: 'BUY', amount: 0.5 },
      { symbol: 'BTC', type: 'BUY', amount: 0.01 },
      { symbol: 'ETH', type: 'SELL', amount: 0.2 },
    ];
    for (const t of placed) await callAs(app.url, trader.token, 'POST', '/api/trades', t);
    const server = (await callAs(app.url, trader.token, 'GET', '/api/trades')) as { trades: Array<{ id: string; type: string; symbol: string; price: number; value: number; entryPrice: number }>; summary: { totalTrades: number; avgTradeSize: number } };
    expect(server.trades).to.have.length(3);

    await arrive(trader.token, '/trade-history');
    expect(await h1().textContent()).to.equal('Trade History');
    const rows = page.getByTestId('trade-row');
    await waitUntil(async () => (await rows.count()) === 3, { message: 'three rows' });
    expect(await page.getByTestId('stat-total-trades').locator('.stat-card__value').textContent()).to.equal('3');
    const avg = server.summary.avgTradeSize.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    expect(await page.getByTestId('stat-avg-size').locator('.stat-card__value').textContent()).to.equal(avg);
    // Newest first; each row's price and dollar value are its own fill's.
    const firstRow = rows.first();
    expect(await firstRow.getAttribute('data-type')).to.equal('SELL');
    // The fill price, and under it what the fill met (issue 17): the mid, ETH's half spread, the impact.
    const fillText = server.trades[0]!.price.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    expect(await firstRow.getByTestId('trade-price').textContent()).to.equal(`${fillText}${await firstRow.getByTestId('trade-execution').textContent()}`);
    expect(await firstRow.getByTestId('trade-execution').textContent()).to.match(/^mid \$[\d,]+\.\d{2} · spread 0\.5 bp · impact (<0\.01|\d+\.\d+|\d+) bp$/);
    expect(await firstRow.getByTestId('trade-amount').textContent()).to.equal(`0.2000 ETH${server.trades[0]!.value.toLocaleString('en-US', { style: 'currency', currency: 'USD' })}`);
    expect(await page.getByTestId('trade-source').allTextContents()).to.deep.equal(['Manual', 'Manual', 'Manual']);
    // FIFO lots: the SELL took 0.2 of the ETH BUY, which still holds 0.3 (its P&L covers that); the SELL
    // names its rule and the entry price of what it took; one trade closed, with a win rate of its own.
    expect(await page.getByTestId('lot-rule').textContent()).to.match(/^Sells are matched to buys first in, first out \(FIFO\)/);
    const ethBuy = rows.filter({ hasText: '0.5000 ETH' });
    expect(await ethBuy.getByTestId('trade-lot').textContent()).to.equal('0.3000 left of 0.5000');
    const entry = server.trades[0]!.entryPrice.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    expect(await firstRow.getByTestId('trade-lot').textContent()).to.equal(`FIFO · entry ${entry}`);
    expect(await page.getByTestId('stat-win-rate').locator('.stat-card__value').textContent()).to.match(/^\d+\.\d%$/);
    await screenshot(page, 'trade-history');

    await page.getByRole('tab', { name: 'Buy' }).click();
    await waitUntil(async () => (await rows.count()) === 2 && (await page.locator('[data-testid="trade-row"][data-type="SELL"]').count()) === 0, { message: 'two BUY rows' });
    await page.getByRole('tab', { name: 'Sell' }).click();
    await waitUntil(async () => (await rows.count()) === 1 && (await page.locator('[data-testid="trade-row"][data-type="SELL"]').count()) === 1, { message: 'one SELL row' });

    // The filter goes to the server (the query string), on the All tab: BTC only.
    await page.getByRole('tab', { name: 'All' }).click();
    await waitUntil(async () => (await rows.count()) === 3, { message: 'all rows again' });
    await page.getByRole('button', { name: 'Filter' }).click();
    const filtered = page.waitForRequest((req) => req.url().includes('/api/trades?') && new URL(req.url()).searchParams.get('symbol') === 'BTC');
    await page.getByLabel('Coin').selectOption('BTC');
    await filtered;
    await waitUntil(async () => (await rows.count()) === 1, { message: 'one BTC row' });
    expect(await rows.first().getByTestId('trade-amount').textContent()).to.match(/^0\.0100 BTC/);

    // Export: the filtered trades as CSV.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).to.match(/^trade-history-\d{4}-\d{2}-\d{2}\.csv$/);
    await expectToast(page, 'Download Started');
    // A BOM first (lib/download-file.ts), so spreadsheet programs read it as UTF-8.
    const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r\n/);
    expect(csv[0]).to.equal('Time,Type,Symbol,Amount,Price,Value,Fee,Signal Source,P&L,Status,Entry Price,Remaining');
    expect(csv).to.have.length(2);
    expect(csv[1]).to.include(',BUY,BTC,0.01,');
    expect(csv[1]).to.include(',Manual,');

    // Status and date range: the closed trades (the SELL) of every coin; nothing from tomorrow on.
    await page.getByLabel('Coin').selectOption('');
    await page.getByLabel('Status').selectOption('CLOSED');
    await waitUntil(async () => (await rows.count()) === 1 && (await rows.first().getAttribute('data-type')) === 'SELL', { message: 'the closed SELL only' });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('From (UTC)').fill(tomorrow);
    await page.getByTestId('no-trades').filter({ hasText: 'No trades match' }).waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await waitUntil(async () => (await rows.count()) === 3, { message: 'all rows after Clear' });
  });

  it('pages through many trades, one server page at a time', async () => {
    const trader = await account('page', false);
    for (let i = 0; i < 27; i += 1) await callAs(app.url, trader.token, 'POST', '/api/trades', { symbol: 'ETH', type: 'BUY', amount: 0.001 });
    await arrive(trader.token, '/trade-history');
    const pager = page.getByTestId('trade-pager');
    await pager.filter({ hasText: 'Page 1 of 2 · 27 trades' }).waitFor();
    // Only buys: no trade has closed, so no win rate (a dash, not 0.0%); the lot rule is stated.
    expect(await page.getByTestId('stat-win-rate').locator('.stat-card__value').textContent()).to.equal('—');
    expect(await page.getByTestId('stat-total-trades').locator('.stat-card__value').textContent()).to.equal('27');
    expect(await page.getByTestId('lot-rule').textContent()).to.include('FIFO');
    expect(await page.getByTestId('trade-row').count()).to.equal(25);
    await page.getByRole('button', { name: 'Next' }).click();
    await pager.filter({ hasText: 'Page 2 of 2' }).waitFor();
    await waitUntil(async () => (await page.getByTestId('trade-row').count()) === 2, { message: 'two rows on page 2' });
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).to.equal(true);
  });

  it('a visitor sees dashes and a Login link on Trade History, and a login prompt on Risk Management', async () => {
    await page.goto('/trade-history');
    await page.getByTestId('trade-history-login').waitFor();
    for (const id of ['stat-total-trades', 'stat-win-rate', 'stat-total-pnl', 'stat-avg-size']) {
      expect(await page.getByTestId(id).locator('.stat-card__value').textContent(), id).to.equal('—');
    }
    expect(await page.getByTestId('trade-history-login').getByRole('link', { name: 'Login' }).getAttribute('href')).to.equal('/login');
    await screenshot(page, 'trade-history-visitor');
    await page.goto('/risk-management');
    await page.getByTestId('risk-login-prompt').getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.getByRole('tab').count()).to.equal(0);
  });
});
