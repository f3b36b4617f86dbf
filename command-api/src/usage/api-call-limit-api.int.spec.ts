/**
 * The Free plan's monthly API calls through HTTP (embedded app on PGlite, the counter in memory as
 * in production's embedded mode): the 1001st command of a month is a 429 naming the limit and
 * appending nothing, the routes of the way up (sign-in, checkout, upgrade) stay open, Premium is
 * never refused, and GET /api/subscription shows the count. Rather than 1000 requests, the test
 * starts the user at 999 calls through the counter the app uses (ApiCallCounter.record).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { subscriptionResponseSchema } from '@papertrade/domain/subscription/contracts';
import { apiCallLimitMessage } from '@papertrade/platform/auth/api-call-counter';
import { useHarness } from '../../../test/api-harness';

describe('API call limit of the plan (HTTP)', function () {
  this.timeout(60_000);
  const harness = useHarness();

  async function account(): Promise<{ userId: string; token: string; email: string }> {
    const t = randomUUID().slice(0, 8);
    const email = `caller.${t}@example.com`;
    const h = harness();
    const { userId } = await h.signup({ email, username: `caller_${t}` });
    await h.projector.caughtUp();
    return { userId, email, token: await h.login(email, 'secret1') };
  }

  let flip = 0;
  /** A command that appends (the stop loss alternates, so every call changes the settings). */
  const command = (token: string, headers: Record<string, string> = {}) =>
    harness().request('POST', '/api/settings/bot', { token, headers, body: { stopLoss: ++flip % 2 ? 2.5 : 3 } });

  async function usage(token: string) {
    const res = await harness().request('GET', '/api/subscription', { token });
    expect(res.status).to.equal(200);
    return subscriptionResponseSchema.parse(res.body).usage.apiCalls;
  }

  it("counts a free user's commands and shows them in GET /api/subscription", async function () {
    const user = await account();
    expect(await usage(user.token)).to.deep.equal({ used: 0, limit: 1000, tracked: true });
    expect((await command(user.token)).status).to.equal(200);
    expect((await command(user.token)).status).to.equal(200);
    // Refused for its input: still a call.
    expect((await harness().request('POST', '/api/settings/bot', { token: user.token, body: { stopLoss: 'x' } })).status).to.equal(400);
    // Reads, sign-in and the subscription routes are not counted.
    await harness().login(user.email, 'secret1');
    expect((await harness().request('POST', '/api/subscription/upgrade', { token: user.token, body: { tier: 'FREE' } })).status).to.be.within(400, 499);
    expect(await usage(user.token)).to.deep.equal({ used: 3, limit: 1000, tracked: true });
  });

  it('answers the 1001st command of the month with 429 and appends nothing; checkout stays open', async function () {
    const h = harness();
    const user = await account();
    await h.rt.apiCalls.record(user.userId, 999);
    const thousandth = await h.appendedBy(async () => expect((await command(user.token)).status).to.equal(200));
    expect(thousandth.map((e) => e.type)).to.deep.equal(['BotSettingsChanged']);
    let refused: Awaited<ReturnType<typeof command>> | undefined;
    const events = await h.appendedBy(async () => {
      refused = await command(user.token);
      expect((await h.request('POST', '/api/trades', { token: user.token, body: { symbol: 'ETH', side: 'BUY', quantity: 1 } })).status).to.equal(429);
    });
    expect(refused!.status).to.equal(429);
    expect(refused!.body.detail).to.equal(apiCallLimitMessage(1000));
    expect(refused!.body.detail).to.match(/1000 API calls/).and.match(/Upgrade to Premium Pro/);
    expect(Number(refused!.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(events).to.deep.equal([]);
    expect(await usage(user.token)).to.deep.equal({ used: 1000, limit: 1000, tracked: true });
    // The way up is never closed: checkout opens for a capped user.
    const checkout = await h.request('POST', '/api/subscription/checkout', { token: user.token, body: { planId: 'premium' } });
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(200);
  });

  it('never refuses Premium Pro, and counts its calls against no limit', async function () {
    const h = harness();
    const user = await account();
    const admin = await h.admin();
    const promoted = await h.request('PUT', `/api/admin/users/${user.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(promoted.status, JSON.stringify(promoted.body)).to.equal(200);
    await h.projector.caughtUp();
    await h.rt.apiCalls.record(user.userId, 5000);
    const res = await command(user.token, { 'x-min-position': String(promoted.body.position) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await usage(user.token)).to.deep.equal({ used: 5001, limit: null, tracked: true });
  });
});
