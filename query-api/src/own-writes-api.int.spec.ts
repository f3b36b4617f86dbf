/**
 * Read-your-own-writes without X-Min-Position (platform/src/http/own-writes.ts), through HTTP in the
 * embedded mode: a plain client that has a command answered and then reads, sending no header, sees
 * its write. No request here sends X-Min-Position except where a test sets up a premium user.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { MIN_POSITION_WAIT_MS } from '@papertrade/platform/http/min-position';
import { useHarness, type Harness } from '../../test/api-harness';

const PAIRS = 200;

/** A signed-up, signed-in user; premium through an admin's edit, read back before it is used. */
export async function newUser(h: Harness, premium = false): Promise<{ userId: string; token: string; email: string }> {
  const id = randomUUID().slice(0, 8);
  const email = `own.${id}@example.com`;
  const { userId } = await h.signup({ email, username: `own_${id}` });
  const token = await h.login(email, 'secret1');
  if (premium) {
    const admin = await h.admin();
    const put = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const me = await h.request('GET', '/api/auth/me', { token, headers: { 'x-min-position': put.body.position } });
    expect(me.body.subscriptionTier).to.equal('PREMIUM');
  }
  return { userId, token, email };
}

describe('read-your-own-writes without X-Min-Position (embedded)', function () {
  this.timeout(180_000);
  const harness = useHarness();
  let h: Harness;
  beforeEach(function () {
    h = harness();
  });

  it(`${PAIRS} back-to-back POST /api/trades then GET /api/trades: every trade is in the list`, async function () {
    // About 75 s on a shared 2-core machine at load average 16 (the commands are most of it).
    this.timeout(300_000);
    const { token } = await newUser(h);
    const misses: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const placed = await h.request('POST', '/api/trades', { token, body: { symbol: 'ETH', type: i % 2 === 0 ? 'BUY' : 'SELL', amount: 0.001 } });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      const list = await h.request('GET', '/api/trades?pageSize=1', { token });
      if (list.status !== 200 || list.body.trades[0]?.id !== placed.body.id || list.body.total !== i + 1) {
        misses.push(`${i}: ${list.status} newest ${list.body.trades?.[0]?.id} (placed ${placed.body.id}), total ${list.body.total}`);
      }
    }
    expect(misses).to.deep.equal([]);
  });

  it('PUT /api/risk/parameters then GET /api/risk/parameters shows the new set, each time', async function () {
    const { token } = await newUser(h, true);
    const misses: string[] = [];
    for (let i = 0; i < 30; i++) {
      const wanted = { ...DEFAULT_RISK_PARAMETERS, maxConcurrentTrades: 1 + (i % 20), maxDrawdown: 5 + i };
      const put = await h.request('PUT', '/api/risk/parameters', { token, body: wanted });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      const got = await h.request('GET', '/api/risk/parameters', { token });
      if (got.body.maxConcurrentTrades !== wanted.maxConcurrentTrades || got.body.maxDrawdown !== wanted.maxDrawdown) misses.push(`${i}: ${JSON.stringify(got.body)}`);
    }
    expect(misses).to.deep.equal([]);
  });

  it("an admin's edit of another user shows in GET /api/admin/users and GET /api/admin/stats at once", async function () {
    const admin = await h.admin();
    const { userId, email } = await newUser(h);
    // Premium users before the loop, the edited user (free) not among them; read as of now.
    const base = (await h.request('GET', '/api/admin/stats', { token: admin.token, headers: { 'x-min-position': String(await h.head()) } })).body.premiumUsers as number;
    const misses: string[] = [];
    for (let i = 0; i < 30; i++) {
      const firstName = `Edited${i}`;
      const tier = i % 2 === 0 ? 'PREMIUM' : 'FREE';
      const put = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { firstName, subscriptionTier: tier, subscriptionStatus: 'ACTIVE' } });
      expect(put.status, JSON.stringify(put.body)).to.equal(200);
      const list = await h.request('GET', `/api/admin/users?q=${encodeURIComponent(email)}`, { token: admin.token });
      const shown = (list.body as Array<{ id: string; firstName: string; subscriptionTier: string }>).find((u) => u.id === userId);
      if (shown?.firstName !== firstName || shown.subscriptionTier !== tier) misses.push(`${i}: ${JSON.stringify(shown)}`);
      const stats = await h.request('GET', '/api/admin/stats', { token: admin.token });
      if (stats.body.premiumUsers !== base + (tier === 'PREMIUM' ? 1 : 0)) misses.push(`${i}: premiumUsers ${stats.body.premiumUsers}, base ${base}, tier ${tier}`);
    }
    expect(misses).to.deep.equal([]);
  });

  it('the bot: new settings then GET /api/risk shows them; a trade and a reset then GET /api/portfolio and /api/trades show both', async function () {
    const { token } = await newUser(h, true);
    const misses: string[] = [];
    for (let i = 0; i < 20; i++) {
      const started = await h.request('POST', '/api/bot/start', { token });
      expect(started.status, JSON.stringify(started.body)).to.equal(200);
      const maxPositionSize = 1 + i;
      const settings = await h.request('POST', '/api/settings/bot', { token, body: { maxPositionSize } });
      expect(settings.status, JSON.stringify(settings.body)).to.equal(200);
      const risk = await h.request('GET', '/api/risk', { token });
      if (risk.body.settings?.maxPositionSize !== maxPositionSize) misses.push(`${i}: settings ${JSON.stringify(risk.body.settings)}`);
      const placed = await h.request('POST', '/api/trades', { token, body: { symbol: 'BTC', type: 'BUY', amount: 0.001 } });
      expect(placed.status).to.equal(201);
      const reset = await h.request('POST', '/api/bot/reset', { token });
      expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
      const [portfolio, trades] = [await h.request('GET', '/api/portfolio', { token }), await h.request('GET', '/api/trades', { token })];
      // The reset empties the portfolio (cash back to the start); the trade history keeps the trade.
      if (portfolio.body.positions?.length !== 0 || portfolio.body.cash !== portfolio.body.startingCash || trades.body.total !== i + 1) {
        misses.push(`${i}: after reset ${portfolio.body.positions?.length} positions, cash ${portfolio.body.cash}, ${trades.body.total} trades`);
      }
    }
    expect(misses).to.deep.equal([]);
  });

  it('POST /api/subscription/cancel or /reactivate then GET /api/subscription shows the change, each time', async function () {
    const { token } = await newUser(h, true);
    const misses: string[] = [];
    for (let i = 0; i < 10; i++) {
      for (const [command, cancelled] of [['cancel', true], ['reactivate', false]] as const) {
        const change = await h.request('POST', `/api/subscription/${command}`, { token });
        expect(change.status, JSON.stringify(change.body)).to.equal(200);
        const subscription = await h.request('GET', '/api/subscription', { token });
        if (subscription.body.isCancelled !== cancelled) misses.push(`${i} ${command}: ${JSON.stringify(subscription.body)}`);
      }
    }
    expect(misses).to.deep.equal([]);
  });

  it("a payment confirmed, then GET /api/auth/me, premium routes and the API call limit see Premium; a move to Free, then the subscription shows it cancelled at the period's end (the projections held back until they wait)", async function () {
    const { token, userId } = await newUser(h);
    // At the Free plan's monthly API call limit: the next command would be a 429 while Free.
    await h.rt.apiCalls.record(userId, 1000);
    const checkout = await h.request('POST', '/api/subscription/checkout', { token, body: { planId: 'premium' } });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
    const sessionId = checkout.body.sessionId as string;
    expect((await fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
    expect((await h.request('GET', '/api/auth/me', { token })).body.subscriptionTier).to.equal('FREE');

    /** Runs `command` with the projector stopped, sends `reads` while it is, and restarts it only then. */
    async function heldBack<T>(command: () => Promise<unknown>, reads: () => Promise<T>): Promise<T> {
      await h.projector.stop();
      let restarted = false;
      try {
        await command();
        const pending = reads();
        await new Promise((r) => setTimeout(r, 200));
        await h.projector.start();
        restarted = true;
        return await pending;
      } finally {
        if (!restarted) await h.projector.start();
      }
    }

    const [me, bot, alerts, trade] = await heldBack(
      async () => expect((await h.request('POST', '/api/subscription/success', { token, body: { sessionId } })).status).to.equal(200),
      () =>
        Promise.all([
          h.request('GET', '/api/auth/me', { token }),
          // The bot decider's premium check, a requirePremium guard, and the Free plan's API call limit.
          h.request('POST', '/api/bot/start', { token }),
          h.request('GET', '/api/risk/alerts', { token }),
          h.request('POST', '/api/trades', { token, body: { symbol: 'ETH', type: 'BUY', amount: 0.001 } }),
        ]),
    );
    expect(me.body.subscriptionTier, JSON.stringify(me.body)).to.equal('PREMIUM');
    expect(bot.status, JSON.stringify(bot.body)).to.be.within(200, 299);
    expect(alerts.status, JSON.stringify(alerts.body)).to.equal(200);
    expect(trade.status, JSON.stringify(trade.body)).to.equal(201);
    await h.request('POST', '/api/bot/stop', { token });

    // A move to Free is a cancellation at the period's end (the paid month is kept): the subscription says so at once.
    const after = await heldBack(
      async () => expect((await h.request('POST', '/api/subscription/upgrade', { token, body: { tier: 'FREE' } })).status).to.equal(200),
      () => h.request('GET', '/api/subscription', { token }),
    );
    expect(after.body, JSON.stringify(after.body)).to.include({ tier: 'PREMIUM', isCancelled: true });
  });

  it('waits at most the X-Min-Position time for a write the projections do not reach, then serves what there is', async function () {
    const { token } = await newUser(h);
    await h.projector.stop();
    try {
      const placed = await h.request('POST', '/api/trades', { token, body: { symbol: 'ETH', type: 'BUY', amount: 0.001 } });
      expect(placed.status).to.equal(201);
      const started = performance.now();
      const list = await h.request('GET', '/api/trades', { token });
      const waited = performance.now() - started;
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-position-reached')).to.equal('false');
      expect(waited).to.be.within(MIN_POSITION_WAIT_MS - 100, MIN_POSITION_WAIT_MS + 3000);
      // Visitors (the house demo) never wait for anyone's write.
      const visitorStarted = performance.now();
      const demo = await h.request('GET', '/api/trades');
      expect(demo.status).to.equal(200);
      expect(demo.headers.get('x-position-reached')).to.equal(null);
      expect(performance.now() - visitorStarted).to.be.below(MIN_POSITION_WAIT_MS);
    } finally {
      await h.projector.start();
    }
  });

  it('reads the caller\'s own later write even when the request sends an older X-Min-Position', async function () {
    const { token } = await newUser(h);
    const stale = String(await h.head());
    await h.projector.stop();
    try {
      const placed = await h.request('POST', '/api/trades', { token, body: { symbol: 'ETH', type: 'BUY', amount: 0.001 } });
      expect(placed.status).to.equal(201);
      // The stale position is projected already; the caller's trade is not: the read must wait for it
      // (and, with the projector stopped, say it did not get there) rather than answer at once.
      const list = await h.request('GET', '/api/trades', { token, headers: { 'x-min-position': stale } });
      expect(list.status).to.equal(200);
      expect(list.headers.get('x-position-reached')).to.equal('false');
    } finally {
      await h.projector.start();
    }
    const after = await h.request('GET', '/api/trades', { token, headers: { 'x-min-position': stale } });
    expect(after.body.total).to.equal(1);
  });

  it('does not wait, nor say it did, when the caller has nothing pending', async function () {
    const { token } = await newUser(h);
    const placed = await h.request('POST', '/api/trades', { token, body: { symbol: 'ETH', type: 'BUY', amount: 0.001 } });
    expect(placed.status).to.equal(201);
    expect((await h.request('GET', '/api/trades', { token })).body.total).to.equal(1);
    const again = await h.request('GET', '/api/trades', { token });
    expect(again.headers.get('x-position-reached')).to.equal(null);
  });
});
