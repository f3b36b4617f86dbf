/**
 * The one risk profile in real Chromium (issue 17, section 3): a change on one screen is seen on the
 * other and in the bot's next trade, and a trailing stop moves on Risk Management's Active Trades.
 *
 * The app is the embedded one on PostgreSQL (EVENT_STORE/READ_STORE=postgres, a schema of its own),
 * as in trading-bot.e2e.spec.ts, so the test can write to the event store from outside: a
 * SignalGenerated as the signal engine appends it (the bot then decides by itself), and, for the
 * trailing stop, a bot position opened half an hour ago at the last tick of a minute, at that tick's
 * price (through the portfolio decider with the command's `now` in the past, as a replay would place
 * it), so the highest price since its entry is already above it. The levels are checked against the
 * rule itself, with the candles the app serves (GET /api/coins/ethereum/ohlc): since issue 17's exit
 * scan, the highest tick since the entry, which is the highest one-minute candle after the entry's
 * minute (the newest, still open, included), times 0.98.
 *
 * The Settings screen's Bot Settings tab does not exist yet: the Bot Settings side of the profile is
 * changed through its endpoint, POST /api/settings/bot, as that tab will call it.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { SignalGeneratedV1 } from '@papertrade/domain/signals/signal';
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { tradesResponseSchema } from '@papertrade/domain/trading/read-contracts';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import type { StartedApp } from '../../test/app-process';
import { dropSchema, postgresClient, uniqueSchema } from '../../test/postgres';
import { POSTGRES_URL, requireServices } from '../../test/services';
import { waitUntil } from '../../test/wait';
import { callAs, getViaApi, logInViaApi, signUpViaApi, uniqueUser } from './support/api';
import { expectToast, screenshot, useBrowserSuite } from './support/browser';

const ADMIN = { email: 'profile-admin@papertrade.test', password: 'profile-admin-password-1' };
const MINUTE = 60_000;
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dollars = (text: string | null) => Number((text ?? '').replace(/[$,]/g, ''));

interface OhlcCandle {
  time: number;
  high: number;
  low: number;
  close: number;
}

describe('web: the one risk profile (e2e, PostgreSQL)', function () {
  this.timeout(240_000);
  const schema = uniqueSchema('profileweb');
  let events: SqlEventStore | undefined;
  let postgres = false;
  before(async function () {
    await requireServices(this, 'postgres');
    postgres = true;
  });
  const suite = useBrowserSuite({
    env: { EVENT_STORE: 'postgres', READ_STORE: 'postgres', DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
  });
  let app: StartedApp;
  let page: Page;
  beforeEach(() => ({ app, page } = suite));
  after(async function () {
    await events?.close();
    if (postgres) await dropSchema(schema);
  });

  async function store(): Promise<SqlEventStore> {
    events ??= await SqlEventStore.create(postgresClient(schema, 2), { schema });
    return events;
  }

  async function premiumUser(prefix: string): Promise<{ userId: string; token: string }> {
    const user = uniqueUser(prefix);
    const { userId } = await signUpViaApi(app.url, user);
    const adminToken = await logInViaApi(app.url, ADMIN.email, ADMIN.password);
    await callAs(app.url, adminToken, 'PUT', `/api/admin/users/${userId}`, { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    const token = await logInViaApi(app.url, user.email, user.password);
    await waitUntil(async () => ((await getViaApi(app.url, '/api/auth/me', { Authorization: `Bearer ${token}` })) as { subscriptionTier: string }).subscriptionTier === 'PREMIUM', {
      message: 'the user to read as premium',
    });
    return { userId, token };
  }

  async function arrive(token: string, path: string) {
    await page.goto('/landing');
    await page.evaluate((t) => localStorage.setItem('authToken', t), token);
    await page.goto(path);
    await page.getByTestId('user-block').waitFor();
  }

  /** Appends a SignalGenerated as the signal engine would, for the candle `candlesAgo` before the last closed one. */
  async function signal(symbol: string, type: 'BUY' | 'SELL', price: number, candleTime: string): Promise<string> {
    const signalId = randomUUID();
    const data: SignalGeneratedV1['data'] = { signalId, symbol, type, confidence: 80, price, candleTime, reasons: [] };
    await (await store()).append(
      signalsStreamId(symbol),
      [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: new Date().toISOString(), schemaVersion: 1 } }],
      'any',
    );
    return signalId;
  }

  const param = (name: string) => page.getByTestId(`risk-param-${name}`);
  const inputValueIs = (name: string, value: string) =>
    page.waitForFunction(([n, v]) => (document.querySelector(`[data-testid="risk-param-${n}"]`) as HTMLInputElement | null)?.value === v, [name, value] as const);

  it("the single risk profile: changed on Risk Management, seen on the dashboard's card; changed through Bot Settings, seen on both; and obeyed by the bot's next trade, whose decision Trade History shows with a refusal", async () => {
    const { token } = await premiumUser('profile');

    // Risk Management: the maximum position size to 7 %.
    await arrive(token, '/risk-management');
    await inputValueIs('maxPositionSize', '5');
    await param('maxPositionSize').fill('7');
    await expectToast(page, 'Success', 'Risk parameters updated');

    // The dashboard's Risk Management card reads the same field.
    await page.goto('/');
    await page.getByTestId('risk-max-position').filter({ hasText: '7%' }).waitFor();
    expect(await page.getByTestId('risk-stop-loss').textContent()).to.equal('2%');
    expect(await page.getByTestId('risk-take-profit').textContent()).to.equal('5%');

    // Bot Settings (its endpoint; the Settings screen comes later): the stop loss to 3 %. The target
    // follows the stop (2.5 stops): 7.5 %. Both screens show it.
    const changed = (await callAs(app.url, token, 'POST', '/api/settings/bot', { stopLoss: 3 })) as { settings: Record<string, unknown> };
    expect(changed.settings).to.include({ maxPositionSize: 7, stopLoss: 3, takeProfit: 7.5 });
    await page.reload();
    await page.getByTestId('risk-stop-loss').filter({ hasText: '3%' }).waitFor();
    expect(await page.getByTestId('risk-take-profit').textContent()).to.equal('7.5%');
    expect(await page.getByTestId('risk-max-position').textContent()).to.equal('7%');
    await screenshot(page, 'risk-profile-dashboard-card', { fullPage: true });
    await page.goto('/risk-management');
    await inputValueIs('stopLossValue', '3');
    expect(await param('maxPositionSize').inputValue()).to.equal('7');
    expect(await param('takeProfitRatio').inputValue()).to.equal('2.5');
    expect(await page.getByTestId('risk-param-stopLossValue-hint').textContent()).to.contain('percent below the entry price');
    await screenshot(page, 'risk-profile-parameters');

    // The bot's next trade obeys both: 7 % of the portfolio, a 3 % stop.
    await page.goto('/');
    await page.getByTestId('connection-status').filter({ hasText: 'Live Data' }).waitFor();
    await page.getByTestId('bot-toggle').filter({ hasText: 'Start Trading Bot' }).click();
    await page.getByTestId('bot-toggle').filter({ hasText: 'Pause Bot' }).waitFor();
    const { price } = (await getViaApi(app.url, '/api/price?symbol=ETH')) as { price: number };
    const lastClosed = Math.floor(Date.now() / 300_000) * 300_000 - 300_000;
    const signalId = await signal('ETH', 'BUY', price, new Date(lastClosed).toISOString());
    await page.getByTestId('recent-trades-panel').getByTestId('trade-item').first().waitFor({ timeout: 30_000 });
    const trades = tradesResponseSchema.parse(await getViaApi(app.url, '/api/trades', { Authorization: `Bearer ${token}` }));
    const [trade] = trades.trades.filter((t) => t.signalId === signalId);
    expect(trade, 'the trade on this signal').to.not.equal(undefined);
    // At the fill price (the market's tick when the bot filled, plus ETH's half spread and the impact).
    expect(trade!.amount * trade!.price * 1.001, '7 % of 10,000 with the fee').to.be.within(699.9, 700);
    expect(trade!.price / price, 'the fill near the price read before the signal').to.be.within(0.99, 1.01);
    expect(trade!.decision).to.deep.include({ rule: 'FIXED_SIZE' });
    expect(trade!.decision!.text).to.match(/^bought 7\.00% of \$10,000\.00 \(\$700\.00 with the fee\): fixed size 7%; stop \$[\d,]+\.\d\d \(fixed 3%\), target/);
    // The stop 3 % below the entry the rules decided at: the fill price, up to what bot-order.ts says
    // the two can differ by (the impact of the few units the second pass dropped, at most about 1e-6
    // of the price; a fresh-clone CI saw 6e-10 of ETH's, 1.5e-6 dollars, beyond the 1e-6 dollars this
    // had allowed) and the figure's six decimals. A stop at the mid or at a worse price is off by the
    // half spread (ETH: 0.5 bp, 5e-5 of the price) and the impact, far beyond it.
    expect(trade!.decision!.figures.stopLoss).to.be.closeTo(trade!.price * 0.97, trade!.price * 1e-6);

    // A second BUY of ETH: refused (a position is open), recorded with its rule.
    const second = await signal('ETH', 'BUY', price, new Date(lastClosed + 1000).toISOString());

    // Trade History: the trade's decision, and the refusal in Bot Decisions.
    await page.goto('/trade-history');
    const row = page.getByTestId('trade-row').filter({ hasText: 'BUY signal' }).first();
    await row.waitFor();
    expect(await row.getByTestId('trade-decision-rule').textContent()).to.equal('Fixed size');
    expect(await row.getByTestId('trade-decision').textContent()).to.contain('bought 7.00% of $10,000.00');
    await waitUntil(
      async () => {
        await page.reload();
        await page.getByTestId('bot-decisions').waitFor();
        return (await page.getByTestId('bot-decision-row').count()) > 0;
      },
      { message: 'the refusal listed', timeoutMs: 30_000, intervalMs: 1000 },
    );
    const refusal = page.getByTestId('bot-decision-row').first();
    expect(await refusal.getByTestId('bot-decision-rule').textContent()).to.equal('Position open');
    expect(await refusal.getByTestId('bot-decision-text').textContent()).to.equal('refused: a position in ETH is already open');
    const decisions = (await getViaApi(app.url, '/api/bot/decisions', { Authorization: `Bearer ${token}` })) as { refusals: Array<{ signalId: string }> };
    expect(decisions.refusals.map((r) => r.signalId)).to.include(second);
    await screenshot(page, 'risk-profile-trade-history', { fullPage: true });
  });

  it("a trailing stop on Risk Management's Active Trades: from the entry's fixed level up to 2 % below the highest tick since the entry, never down", async () => {
    const { userId, token } = await premiumUser('trailing');

    // A bot position in ETH opened at the last tick of the lowest minute of the last ~45 (not the last five), at that tick's price (the minute's close).
    const ohlc = async () => ((await getViaApi(app.url, '/api/coins/ethereum/ohlc?days=0.17')) as { candles: OhlcCandle[]; intervalMinutes: number }).candles;
    const recent = (await ohlc()).slice(-46, -6);
    const low = recent.reduce((a, c) => (c.close < a.close ? c : a));
    const openedAt = low.time + MINUTE - 5000;
    const entry = low.close;
    const handler = new CommandHandler(await store(), () => new Date());
    await handler.handle(
      portfolioDecider,
      portfolioStreamId(userId),
      {
        type: 'PlaceSimulatedTrade',
        data: {
          userId,
          tradeId: randomUUID(),
          symbol: 'ETH',
          side: 'BUY',
          amount: 0.1,
          price: entry,
          source: { kind: 'SIGNAL', eventId: randomUUID(), signalId: randomUUID(), signalType: 'BUY', candleTime: new Date(low.time - 5 * MINUTE).toISOString() },
          exits: { kind: 'PROFILE', atr: null, sigma: null },
        },
        metadata: { now: new Date(openedAt).toISOString() },
      },
      { actor: 'trading-bot', correlationId: randomUUID() },
    );

    // Fixed (the default): 2 % below the entry.
    await arrive(token, '/risk-management');
    await page.getByRole('tab', { name: 'Active Trades' }).click();
    const row = page.getByTestId('active-trade-row').filter({ hasText: 'ETH' });
    await waitUntil(
      async () => {
        if ((await row.count()) === 0) await page.reload().then(() => page.getByRole('tab', { name: 'Active Trades' }).click());
        return (await row.count()) === 1;
      },
      { message: 'the position listed', timeoutMs: 30_000, intervalMs: 1000 },
    );
    expect(dollars(await row.getByTestId('active-trade-stop').textContent())).to.be.closeTo(entry * 0.98, 0.006);
    expect(await row.getByTestId('active-trade-rule').textContent()).to.match(/^Fixed: 2% below entry/);

    // Trailing, on the Parameters tab.
    await page.getByRole('tab', { name: 'Parameters' }).click();
    await param('stopLossType').selectOption('trailing');
    await expectToast(page, 'Success', 'Risk parameters updated');
    await page.getByRole('tab', { name: 'Active Trades' }).click();

    /** The rule with the market now: the highest tick since the entry (the one-minute candles after its minute, the open one too) or the entry. */
    const trailingLevel = async () => {
      const candles = await ohlc();
      const highest = candles.filter((c) => c.time > low.time).reduce((h, c) => Math.max(h, c.high), entry);
      return { highest, stop: highest * 0.98 };
    };
    const shown = async () => dollars(await row.getByTestId('active-trade-stop').textContent());
    const first = await waitUntil(
      async () => {
        const { highest, stop } = await trailingLevel();
        const text = await row.getByTestId('active-trade-stop').textContent();
        return text === usd.format(stop) ? { highest, stop } : undefined;
      },
      { message: 'the trailing stop from the highest tick since the entry', timeoutMs: 60_000, intervalMs: 1000 },
    );
    expect(first.highest, 'the market went above the entry since').to.be.above(entry);
    expect(first.stop, 'the stop moved up from the fixed level').to.be.above(entry * 0.98);
    expect(await row.getByTestId('active-trade-rule').textContent()).to.equal(`Trailing: 2% below the high since entry ${usd.format(first.highest)}, target 2.5 x the stop's distance`);
    // The target stays 2.5 fixed distances above the entry.
    expect(dollars(await row.getByTestId('active-trade-target').textContent())).to.be.closeTo(entry * 1.05, 0.006);
    await screenshot(page, 'risk-profile-trailing-stop', { fullPage: true });

    // Over the next polls (every 10 s) the level only rises, and always says the rule with the market then.
    // The exit scan runs meanwhile: the market may fall to the trailing stop (or rise to the target)
    // and close the position, its row then gone. That is the rule at work, not a failure: the close
    // must then be the stop's (or the target's), at or below the last level shown (the stop fills at
    // the first tick through it, the half spread below), and the watch ends there (a fresh-clone
    // .ci/run waited 30 s for the stop of a row that had closed).
    const closing = async () => {
      const { trades } = tradesResponseSchema.parse(await getViaApi(app.url, '/api/trades', { Authorization: `Bearer ${token}` }));
      return trades.find((t) => t.symbol === 'ETH' && t.type === 'SELL');
    };
    /** The level shown, or the trade that closed the position; a row that goes between the two reads throws, and waitUntil reads again. */
    const poll = async (): Promise<{ level: number } | { closed: NonNullable<Awaited<ReturnType<typeof closing>>> }> => {
      const closed = await closing();
      if (closed) return { closed };
      return { level: dollars(await row.getByTestId('active-trade-stop').textContent({ timeout: 2000 })) };
    };
    const seen = [await shown()];
    const until = Date.now() + 35_000;
    let closedBy: Awaited<ReturnType<typeof closing>>;
    while (Date.now() < until && !closedBy) {
      const next = await waitUntil(
        async () => {
          const read = await poll();
          return 'closed' in read || read.level !== seen[seen.length - 1] || Date.now() >= until ? read : undefined;
        },
        { message: 'a poll', timeoutMs: 40_000, intervalMs: 1000 },
      );
      if ('closed' in next) closedBy = next.closed;
      else seen.push(next.level);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i], `never down: ${seen.join(' -> ')}`).to.be.at.least(seen[i - 1]!);
    if (closedBy) {
      expect(closedBy.closeReason, 'closed by its own exit').to.be.oneOf(['STOP_LOSS', 'TAKE_PROFIT']);
      if (closedBy.closeReason === 'STOP_LOSS') expect(closedBy.price, `the stop's fill at or below the last level shown ${seen[seen.length - 1]}`).to.be.at.most(seen[seen.length - 1]! + 0.006);
      else expect(closedBy.price, 'the target at 2.5 fixed distances above the entry').to.be.at.least(entry * 1.05 * 0.999);
      return;
    }
    // The rule's level read again at each try: a new high after one reading moves the level the next
    // poll shows, so a level read once can be overtaken for good (a fresh-clone .ci/run timed out so).
    await waitUntil(
      async () => {
        const { stop } = await trailingLevel();
        return Math.abs((await shown()) - Math.round(stop * 100) / 100) < 0.006;
      },
      { message: 'the level of the rule now', timeoutMs: 60_000, intervalMs: 1000 },
    );
  });

  it('maxDrawdown: below the recorded peak by more than the maximum, the dashboard says why with the bot status, and the bot refuses the next BUY with its figures', async () => {
    const { userId, token } = await premiumUser('drawdown');
    const parameters = (await callAs(app.url, token, 'GET', '/api/risk/parameters')) as Record<string, unknown>;
    delete parameters.customised;
    await callAs(app.url, token, 'PUT', '/api/risk/parameters', { ...parameters, maxDrawdown: 5 });
    // The portfolio opened by a small manual trade, then a peak of 11,500 recorded (as the risk monitor
    // records one on a tick): about 13 % below it now.
    await callAs(app.url, token, 'POST', '/api/trades', { symbol: 'ADA', type: 'BUY', amount: 10 });
    await new CommandHandler(await store(), () => new Date()).handle(
      portfolioDecider,
      portfolioStreamId(userId),
      { type: 'RecordPortfolioPeak', data: { userId, valueMicros: 11_500_000_000 }, metadata: { now: new Date().toISOString() } },
      { actor: 'risk-monitor', correlationId: randomUUID() },
    );

    await arrive(token, '/');
    await page.getByTestId('bot-toggle').filter({ hasText: 'Start Trading Bot' }).click();
    await page.getByTestId('bot-toggle').filter({ hasText: 'Pause Bot' }).waitFor();
    const note = page.getByTestId('quick-actions-panel').getByTestId('bot-entries-paused');
    await waitUntil(
      async () => {
        if ((await note.count()) === 0) await page.reload();
        return (await note.count()) === 1;
      },
      { message: 'the pause reason beside the bot status', timeoutMs: 30_000, intervalMs: 1000 },
    );
    expect(await note.textContent()).to.match(/^New entries paused: drawdown 1\d\.\d\d% from the peak \$11,500\.00 is above the maximum 5%$/);
    await screenshot(page, 'risk-profile-drawdown-paused');

    const { price } = (await getViaApi(app.url, '/api/price?symbol=SOL')) as { price: number };
    const signalId = await signal('SOL', 'BUY', price, new Date(Math.floor(Date.now() / 300_000) * 300_000 - 300_000).toISOString());
    const refusal = await waitUntil(
      async () => ((await getViaApi(app.url, '/api/bot/decisions', { Authorization: `Bearer ${token}` })) as { refusals: Array<{ signalId: string; rule: string; text: string; figures: Record<string, number> }> }).refusals.find((r) => r.signalId === signalId),
      { message: 'the refusal', timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(refusal.rule).to.equal('MAX_DRAWDOWN');
    expect(refusal.text).to.match(/^refused: drawdown 1\d\.\d\d% from the peak \$11,500\.00 is above the maximum 5%$/);
    expect(refusal.figures).to.include({ peak: 11_500, maxDrawdown: 5 });
  });
});
