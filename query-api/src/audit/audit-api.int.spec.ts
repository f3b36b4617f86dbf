/**
 * The audit API through HTTP on the embedded app (PGlite, the simulated market): who may read it
 * (visitor, free, premium, admin, auditor), bad input (4xx with a message, nothing appended), redaction of the
 * password hash, the timeline in global order with paging and CSV, and the as-of replay: trades placed
 * at t1 < t2 < t3 through the portfolio decider and the command handler (with a clock at those
 * times), the portfolios read model captured after each, and the audit's portfolio as of a time
 * between them equal to the read model captured then (state, and valuation at the prices it names);
 * likewise the subscription as of each step of a paid lifecycle (test checkout, activation, cancel,
 * reactivate, cancel, move to Free, an admin's edit) equals GET /api/subscription and the billing
 * history captured right after that step.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import { portfolioStreamId, type TradeSource } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider, type PortfolioCommand } from '@papertrade/domain/trading/portfolio.decider';
import { PORTFOLIOS_PROJECTION, type PortfolioView } from '@papertrade/domain/trading/trading-view';
import { valueView } from '@papertrade/domain/trading/trading-read';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider, type RiskCommand } from '@papertrade/domain/trading/risk.decider';
import { portfolioAsOfResponseSchema, streamResponseSchema, subscriptionAsOfResponseSchema, timelineResponseSchema } from '@papertrade/domain/audit/contracts';
import { billingHistoryResponseSchema, subscriptionResponseSchema } from '@papertrade/domain/subscription/contracts';
import { REDACTED } from '@papertrade/domain/audit/redaction';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { Position } from '@papertrade/platform/event-store/position';
import { useHarness } from '../../../test/api-harness';
import { TIMELINE_CSV_FIELDS } from './audit-routes';

const HOUR = 3_600_000;
const MANUAL: TradeSource = { kind: 'MANUAL' };

describe('audit API (HTTP, embedded)', function () {
  this.timeout(120_000);
  const harness = useHarness();

  const meta = { actor: 'test', correlationId: 'test' };
  async function trade(userId: string, tradeId: string, side: 'BUY' | 'SELL', amount: number, price: number, at: Date, symbol = 'ETH'): Promise<Position> {
    const handler = new CommandHandler(harness().rt.infra.eventStore, () => at);
    const command = { type: 'PlaceSimulatedTrade', data: { userId, tradeId, symbol, side, amount, price, source: MANUAL }, metadata: { now: at.toISOString() } } as PortfolioCommand;
    const result = await handler.handle(portfolioDecider, portfolioStreamId(userId), command, meta);
    return result.position as Position;
  }

  async function user(tier: 'FREE' | 'PREMIUM'): Promise<{ userId: string; token: string; email: string }> {
    const id = randomUUID().slice(0, 8);
    const email = `a.${id}@example.com`;
    const { userId } = await harness().signup({ email, username: `a_${id}`, password: 'audit-pass-1' });
    const token = await harness().login(email, 'audit-pass-1');
    if (tier === 'PREMIUM') {
      const admin = await harness().admin();
      const res = await harness().request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      expect(res.status).to.equal(200);
    }
    return { userId, token, email };
  }

  const get = (path: string, token?: string, headers: Record<string, string> = {}) => harness().request('GET', path, { ...(token ? { token } : {}), headers });

  async function livePortfolio(userId: string, position: Position): Promise<PortfolioView> {
    const readModels = harness().rt.infra.readModels;
    expect(await readModels.waitFor([PORTFOLIOS_PROJECTION], position, 10_000)).to.equal(true);
    const doc = await (await readModels.collection<PortfolioView>(PORTFOLIOS_PROJECTION)).get(userId);
    if (!doc) throw new Error('no portfolio document');
    return structuredClone(doc);
  }

  describe('permissions', function () {
    it('visitors get 401, free and premium users 403, admins and auditors 200, on every audit route', async function () {
      const free = await user('FREE');
      const premium = await user('PREMIUM');
      const admin = await harness().admin();
      const auditor = await user('FREE');
      const grant = await harness().request('PUT', `/api/admin/users/${auditor.userId}/auditor`, { token: admin.token, body: { auditor: true } });
      expect(grant.status).to.equal(200);
      await harness().projector.caughtUp();
      const asOf = encodeURIComponent(new Date().toISOString());
      const paths = [
        `/api/audit/streams/user-${free.userId}`,
        `/api/audit/users/${free.userId}/timeline`,
        `/api/audit/users/${free.userId}/portfolio?asOf=${asOf}`,
        `/api/audit/users/${free.userId}/subscription?asOf=${asOf}`,
      ];
      for (const path of paths) {
        expect((await get(path)).status, `visitor ${path}`).to.equal(401);
        const forFree = await get(path, free.token);
        expect(forFree.status, `free ${path}`).to.equal(403);
        expect(forFree.body.detail).to.match(/Administrator or auditor access required/);
        expect((await get(path, premium.token)).status, `premium ${path}`).to.equal(403);
        expect((await get(path, admin.token)).status, `admin ${path}`).to.equal(200);
        expect((await get(path, auditor.token, { 'x-min-position': grant.body.position })).status, `auditor ${path}`).to.equal(200);
      }
    });
  });

  describe('bad input', function () {
    it('answers 4xx naming the problem, and appends nothing', async function () {
      const admin = await harness().admin();
      const { userId } = await user('FREE');
      const cases: Array<[string, number, RegExp]> = [
        ['/api/audit/streams/has%20space', 400, /stream/],
        ['/api/audit/streams/a%00b', 400, /stream/],
        ['/api/audit/streams/-leading-dash', 400, /stream/],
        [`/api/audit/streams/${'x'.repeat(201)}`, 400, /stream/],
        ['/api/audit/streams/portfolio-nobody-here', 404, /No stream named portfolio-nobody-here/],
        [`/api/audit/streams/user-${userId}?pageSize=100000`, 400, /pageSize must be at most 200/],
        [`/api/audit/streams/user-${userId}?page=0`, 400, /page/],
        [`/api/audit/streams/user-${userId}?page=1&page=2`, 400, /page/],
        [`/api/audit/streams/user-${userId}?sort=desc`, 400, /unknown field: sort/],
        [`/api/audit/users/${userId}/timeline?format=xml`, 400, /format: must be json or csv/],
        [`/api/audit/users/${userId}/timeline?pageSize=abc`, 400, /pageSize/],
        ['/api/audit/users/bad%00id/timeline', 400, /user id/],
        [`/api/audit/users/${randomUUID()}/timeline`, 404, /No user with id/],
        [`/api/audit/users/${userId}/portfolio`, 400, /asOf/],
        [`/api/audit/users/${userId}/portfolio?asOf=yesterday`, 400, /asOf must be an ISO-8601 date-time/],
        [`/api/audit/users/${userId}/portfolio?asOf=2026-01-01T00:00:00`, 400, /asOf/],
        [`/api/audit/users/${userId}/portfolio?asOf=2026-01-01T00:00:00Z%00`, 400, /asOf/],
        [`/api/audit/users/${userId}/subscription?asOf=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`, 400, /in the future/],
      ];
      const appended = await harness().appendedBy(async () => {
        for (const [path, status, message] of cases) {
          const res = await get(path, admin.token);
          expect(res.status, path).to.equal(status);
          expect(res.headers.get('content-type'), path).to.match(/application\/problem\+json/);
          expect(res.body.detail, path).to.match(message);
        }
      });
      expect(appended).to.deep.equal([]);
    });
  });

  describe('GET /api/audit/streams/{stream}', function () {
    it('shows a user stream with type, data, metadata, position and time, never the password hash', async function () {
      const admin = await harness().admin();
      const { userId, email } = await user('FREE');
      const stored = await harness().rt.infra.eventStore.readStream(`user-${userId}`);
      const hash = stored[0]!.data.passwordHash;
      expect(hash).to.be.a('string').and.have.length.above(10);
      const res = await get(`/api/audit/streams/user-${userId}`, admin.token);
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      const body = streamResponseSchema.parse(res.body);
      expect(JSON.stringify(res.body)).not.to.contain(hash as string);
      const registered = body.events[0]!;
      expect(registered).to.include({ streamId: `user-${userId}`, revision: '0', type: 'UserRegistered', position: stored[0]!.position, time: stored[0]!.metadata.at });
      expect(registered.data).to.include({ userId, email, passwordHash: REDACTED });
      expect(registered.metadata).to.have.property('correlationId');
    });

    it('pages a stream', async function () {
      const admin = await harness().admin();
      const { userId } = await user('FREE');
      const t = Date.now() - 5 * HOUR;
      for (let i = 0; i < 5; i++) await trade(userId, `p${i}`, 'BUY', 0.01, 3000, new Date(t + i * 1000));
      const page2 = streamResponseSchema.parse((await get(`/api/audit/streams/portfolio-${userId}?page=2&pageSize=2`, admin.token)).body);
      // PortfolioOpened + 5 trades = 6 events
      expect(page2).to.include({ total: 6, totalPages: 3, page: 2, pageSize: 2 });
      expect(page2.events.map((e) => e.revision)).to.deep.equal(['2', '3']);
    });
  });

  describe('GET /api/audit/users/{id}/timeline', function () {
    it('merges trades, risk and subscription events in the global order, paged, as JSON or CSV', async function () {
      const admin = await harness().admin();
      const { userId } = await user('FREE');
      const t = Date.now() - 4 * HOUR;
      await trade(userId, 'tl1', 'BUY', 0.1, 3000, new Date(t));
      const riskHandler = new CommandHandler(harness().rt.infra.eventStore, () => new Date(t + 1000));
      const settings: RiskCommand = { type: 'ChangeBotSettings', data: { userId, changes: { stopLossPercent: 3 } }, metadata: { now: new Date(t + 1000).toISOString() } };
      expect((await riskHandler.handle(riskDecider, riskStreamId(userId), settings, meta)).events).to.have.length(1);
      const change = await harness().request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      expect(change.status).to.equal(200);
      await trade(userId, 'tl2', 'SELL', 0.1, 3100, new Date());

      const all = timelineResponseSchema.parse((await get(`/api/audit/users/${userId}/timeline?pageSize=200`, admin.token)).body);
      const positions = all.entries.map((e) => e.position);
      expect(positions).to.deep.equal([...positions].sort());
      expect(all.entries.map((e) => e.category)).to.include.members(['trade', 'risk', 'subscription']);
      const subscription = all.entries.find((e) => e.category === 'subscription')!;
      expect(subscription.streamId).to.equal(`subscription-${userId}`);
      // The subscription change came after the first trade and before the second, in the global order.
      const types = all.entries.map((e) => `${e.category}:${e.type}`);
      expect(types.indexOf('subscription:SubscriptionChangedByAdmin')).to.be.greaterThan(types.indexOf('trade:PortfolioOpened'));
      expect(types.lastIndexOf('trade:SimulatedTradePlaced')).to.be.greaterThan(types.indexOf('subscription:SubscriptionChangedByAdmin'));

      const first = timelineResponseSchema.parse((await get(`/api/audit/users/${userId}/timeline?pageSize=1`, admin.token)).body);
      expect(first).to.include({ total: all.total, totalPages: all.total, pageSize: 1 });
      expect(first.entries[0]!.position).to.equal(all.entries[0]!.position);

      for (const res of [await get(`/api/audit/users/${userId}/timeline?format=csv&pageSize=200`, admin.token), await get(`/api/audit/users/${userId}/timeline?pageSize=200`, admin.token, { accept: 'text/csv' })]) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^text\/csv/);
        const parsed = Papa.parse<Record<string, string>>(res.body as string, { header: true, skipEmptyLines: true });
        expect(parsed.meta.fields).to.deep.equal([...TIMELINE_CSV_FIELDS]);
        expect(parsed.data.map((r) => r.position)).to.deep.equal(positions);
        expect(JSON.parse(parsed.data[0]!.data!)).to.deep.equal(all.entries[0]!.data);
      }
    });
  });

  describe('as of a past time', function () {
    it('the portfolio rebuilt by replay equals the live read model captured at that time', async function () {
      const admin = await harness().admin();
      const { userId } = await user('FREE');
      const t1 = new Date(Date.now() - 3 * HOUR);
      const t2 = new Date(Date.now() - 2 * HOUR);
      const t3 = new Date(Date.now() - 1 * HOUR);
      const captured: PortfolioView[] = [];
      captured.push(await livePortfolio(userId, await trade(userId, 'a1', 'BUY', 0.5, 3000, t1)));
      await trade(userId, 'a2', 'BUY', 0.01, 60_000, t2, 'BTC');
      captured.push(await livePortfolio(userId, await trade(userId, 'a3', 'SELL', 0.2, 3100, t2)));
      captured.push(await livePortfolio(userId, await trade(userId, 'a4', 'SELL', 0.3, 2900, t3)));

      const between = [new Date(t1.getTime() + HOUR / 2), new Date(t2.getTime() + HOUR / 2), new Date(t3.getTime() + HOUR / 2)];
      for (const [i, asOf] of between.entries()) {
        const res = await get(`/api/audit/users/${userId}/portfolio?asOf=${encodeURIComponent(asOf.toISOString())}`, admin.token);
        expect(res.status).to.equal(200);
        const body = portfolioAsOfResponseSchema.parse(res.body);
        const live = captured[i]!;
        expect(body.state.cashMicros, `cash as of t${i + 1}`).to.equal(live.cashMicros);
        expect(body.state.realisedPnlMicros).to.equal(live.realisedPnlMicros);
        expect(body.state.startingCashMicros).to.equal(live.startingCashMicros);
        const livePositions = Object.values(live.positions).sort((a, b) => (a!.symbol < b!.symbol ? -1 : 1));
        expect(body.state.positions).to.deep.equal(livePositions);
        // Valued at the prices it names, the read model captured then says the same, to the cent.
        const prices = Object.fromEntries(body.prices.filter((p) => p.price !== null).map((p) => [p.symbol, p.price!]));
        const { positions: _p, ...liveValuation } = valueView(live, prices);
        expect(body.valuation).to.deep.equal(liveValuation);
        for (const p of body.prices) {
          expect(p.price, `a market price for ${p.symbol}`).to.be.a('number');
          expect(Date.parse(p.candleTime!)).to.be.at.most(asOf.getTime());
        }
        expect(body.events.every((e) => Date.parse(e.time) <= asOf.getTime())).to.equal(true);
      }
      const first = portfolioAsOfResponseSchema.parse((await get(`/api/audit/users/${userId}/portfolio?asOf=${encodeURIComponent(between[0]!.toISOString())}`, admin.token)).body);
      expect(first.events.map((e) => e.type)).to.deep.equal(['PortfolioOpened', 'SimulatedTradePlaced']);
      expect(first.laterEvents).to.equal(3);
      const before = portfolioAsOfResponseSchema.parse((await get(`/api/audit/users/${userId}/portfolio?asOf=${encodeURIComponent(new Date(t1.getTime() - 1000).toISOString())}`, admin.token)).body);
      expect(before).to.deep.include({ opened: false, events: [] });
      expect(before.valuation.totalValue).to.equal(10_000);
    });

    it('the subscription rebuilt by replay equals the live read model captured after each step of a paid lifecycle', async function () {
      const admin = await harness().admin();
      const { userId, token } = await user('FREE');
      const h = harness();
      /** GET /api/subscription and the billing history once the step's event is projected, and the time just after. */
      async function capture(position: string | null) {
        const headers: Record<string, string> = position ? { 'x-min-position': position } : {};
        const live = subscriptionResponseSchema.parse((await get('/api/subscription', token, headers)).body);
        const billing = billingHistoryResponseSchema.parse((await get('/api/subscription/billing', token, headers)).body);
        const at = new Date();
        await new Promise((r) => setTimeout(r, 5)); // the next step's events are appended strictly later
        return { at, live, billing, label: '' };
      }
      const ok = async (label: string, res: Promise<{ status: number; body: any }>) => {
        const answer = await res;
        expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).to.be.within(200, 299);
        return { ...(await capture((answer.body?.position as string | undefined) ?? String(await h.head()))), label };
      };
      const steps = [{ ...(await capture(null)), label: 'signed up' }];
      const checkout = await h.request('POST', '/api/subscription/checkout', { token, body: { planId: 'premium' } });
      const sessionId = checkout.body.sessionId as string;
      steps.push({ ...(await capture(String(await h.head()))), label: 'checkout started' });
      expect((await fetch(`${h.url}/test-checkout/${sessionId}/pay`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
      steps.push({ ...(await capture(String(await h.head()))), label: 'paid' });
      steps.push(await ok('activated', h.request('POST', '/api/subscription/success', { token, body: { sessionId } })));
      steps.push(await ok('cancelled', h.request('POST', '/api/subscription/cancel', { token })));
      steps.push(await ok('reactivated', h.request('POST', '/api/subscription/reactivate', { token })));
      steps.push(await ok('cancelled again', h.request('POST', '/api/subscription/cancel', { token })));
      // The user's own move to Free is a cancellation at the period's end now (issue 16): an admin's is at once.
      steps.push(await ok('moved to Free by an admin', h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'FREE' } })));
      steps.push(await ok('made Premium, inactive, by an admin', h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'INACTIVE' } })));
      // Each step shows somewhere: the live answers are not all the same.
      expect(new Set(steps.map((s) => JSON.stringify([s.live.tier, s.live.subscriptionStatus, s.live.endsAt, s.billing.length]))).size).to.equal(6);

      for (const [i, step] of steps.entries()) {
        const res = await get(`/api/audit/users/${userId}/subscription?asOf=${encodeURIComponent(step.at.toISOString())}`, admin.token);
        expect(res.status, step.label).to.equal(200);
        const replayed = subscriptionAsOfResponseSchema.parse(res.body);
        const state = replayed.state as { tier: string; status: string; endsAt: string | null; paid: string[]; failed: string[] };
        expect([state.tier, state.status], step.label).to.deep.equal([step.live.tier, step.live.subscriptionStatus]);
        expect(state.endsAt !== null, `${step.label}: cancelled`).to.equal(step.live.isCancelled);
        expect(state.endsAt, `${step.label}: end date`).to.equal(step.live.endsAt?.iso ?? null);
        expect([...state.paid, ...state.failed].sort(), `${step.label}: payments`).to.deep.equal(step.billing.map((b) => b.id).sort());
        expect(replayed.events.every((e) => Date.parse(e.time) <= step.at.getTime()), step.label).to.equal(true);
        if (i + 1 < steps.length) expect(replayed.laterEvents, step.label).to.be.greaterThan(0);
      }
    });

    it('the subscription rebuilt by replay, before and after an admin made it premium', async function () {
      const admin = await harness().admin();
      const { userId } = await user('FREE');
      const beforeChange = new Date();
      await new Promise((r) => setTimeout(r, 5));
      const change = await harness().request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      expect(change.status).to.equal(200);
      const atBefore = subscriptionAsOfResponseSchema.parse((await get(`/api/audit/users/${userId}/subscription?asOf=${encodeURIComponent(beforeChange.toISOString())}`, admin.token)).body);
      expect(atBefore).to.deep.include({ events: [], laterEvents: 1 });
      expect(atBefore.state).to.include({ tier: 'FREE', status: 'ACTIVE' });
      const now = subscriptionAsOfResponseSchema.parse((await get(`/api/audit/users/${userId}/subscription?asOf=${encodeURIComponent(new Date().toISOString())}`, admin.token)).body);
      expect(now.state).to.include({ tier: 'PREMIUM', status: 'ACTIVE' });
      expect(now.events.map((e) => e.type)).to.deep.equal(['SubscriptionChangedByAdmin']);
    });
  });
});
