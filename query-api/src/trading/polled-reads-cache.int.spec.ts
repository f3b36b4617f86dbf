/**
 * The polled reads served from the process's read cache (platform/src/projections/read-model-cache.ts)
 * through HTTP, embedded: what someone else writes on a user's account (the bot's trade, the risk
 * monitor's alert, the signal engine's signal) shows once its change notice arrives, and what the
 * user writes, or what X-Min-Position names, shows at once even on a query-api whose cache hears no
 * notice at all (a NATS notice is at most once). Each read is first made twice, so the second is
 * served from the cache, before anything changes.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { signalDecider } from '@papertrade/domain/signals/signal.decider';
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { ReadModelCache } from '@papertrade/platform/projections/read-model-cache';
import { useHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { queryApiDeps } from '../../../bin/compose';
import { createQueryApi } from '../app';

async function serve(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function newUser(h: Harness, premium = false): Promise<{ userId: string; token: string }> {
  const id = randomUUID().slice(0, 8);
  const email = `cache.${id}@example.com`;
  const { userId } = await h.signup({ email, username: `cache_${id}` });
  const token = await h.login(email, 'secret1');
  if (premium) {
    const admin = await h.admin();
    const put = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const me = await h.request('GET', '/api/auth/me', { token, headers: { 'x-min-position': put.body.position } });
    expect(me.body.subscriptionTier).to.equal('PREMIUM');
  }
  return { userId, token };
}

describe('polled reads through the read cache (embedded)', function () {
  this.timeout(120_000);
  const harness = useHarness();
  let h: Harness;
  let handler: CommandHandler;
  /** A query-api whose cache never hears a change notice: only positions keep it honest. */
  let deaf: { url: string; close(): Promise<void> };
  const now = () => new Date().toISOString();

  before(async function () {
    h = harness();
    handler = new CommandHandler(h.rt.infra.eventStore, h.rt.clock);
    const readCache = new ReadModelCache(h.rt.infra.readModels, (actor, after) => h.rt.infra.eventStore.lastPositionByActor(actor, after), { maxAgeMs: 10 * 60_000 });
    deaf = await serve(createQueryApi({ ...queryApiDeps(h.rt), readCache }));
  });
  after(async function () {
    await deaf?.close();
  });

  /** A trade on the user's portfolio by the bot (another actor than the user). */
  async function botTrade(userId: string, symbol: string) {
    const price = (await h.rt.marketData.prices()).find((p) => p.symbol === symbol)!.price;
    return handler.handle(
      portfolioDecider,
      portfolioStreamId(userId),
      { type: 'PlaceSimulatedTrade', data: { userId, tradeId: randomUUID(), symbol, side: 'BUY', amount: 0.01, price, source: { kind: 'MANUAL' } }, metadata: { now: now() } },
      { actor: 'trading-bot', correlationId: randomUUID() },
    );
  }
  const read = async (base: string, path: string, token: string, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}`, ...headers } });
    expect(res.status, path).to.equal(200);
    return (await res.json()) as any;
  };

  it("shows the bot's trade in GET /api/trades and /api/portfolio once its notices arrive", async function () {
    const { userId, token } = await newUser(h);
    for (let i = 0; i < 2; i++) {
      expect((await read(h.url, '/api/trades', token)).total).to.equal(0);
      expect((await read(h.url, '/api/portfolio', token)).positions).to.have.length(0);
    }
    await botTrade(userId, 'SOL');
    await waitUntil(async () => (await read(h.url, '/api/trades', token)).total === 1, { message: "the bot's trade in GET /api/trades" });
    await waitUntil(async () => (await read(h.url, '/api/portfolio', token)).positions.length === 1, { message: "the bot's position in GET /api/portfolio" });
  });

  it("shows the risk monitor's alert in GET /api/risk/alerts once its notice arrives", async function () {
    const { userId, token } = await newUser(h, true);
    for (let i = 0; i < 2; i++) expect((await read(h.url, '/api/risk/alerts', token)).alerts).to.have.length(0);
    await handler.handle(
      riskDecider,
      riskStreamId(userId),
      {
        type: 'RaiseRiskAlert',
        data: { userId, alertId: randomUUID(), conditionKey: 'volatility:ETH', kind: 'VOLATILITY', severity: 'high', symbol: 'ETH', message: 'ETH moves a lot', value: 9, threshold: 5 },
        metadata: { now: now() },
      },
      { actor: 'risk-monitor', correlationId: randomUUID() },
    );
    await waitUntil(async () => (await read(h.url, '/api/risk/alerts', token)).alerts.length === 1, { message: 'the alert in GET /api/risk/alerts' });
  });

  it('shows a new signal in GET /api/signals once its notice arrives', async function () {
    const { token } = await newUser(h);
    const before = (await read(h.url, '/api/signals?symbol=DOT', token)).total as number;
    expect((await read(h.url, '/api/signals?symbol=DOT', token)).total).to.equal(before);
    const readings = { price: 7, rsi: 15, macd: { macd: 1, signal: 0.5, histogram: 0.5 }, sma20: 6, sma50: 5, ema20: 6.5, ema20Previous: 6.4, volumeRatio: 2 };
    const result = await handler.handle(
      signalDecider,
      signalsStreamId('DOT'),
      { type: 'EvaluateSignal', data: { signalId: randomUUID(), symbol: 'DOT', candleTime: new Date(Date.now() + 60_000 * (before + 1)).toISOString(), readings } },
      { actor: 'signal-engine', correlationId: randomUUID() },
    );
    expect(result.events).to.have.length(1);
    await waitUntil(async () => (await read(h.url, '/api/signals?symbol=DOT', token)).total === before + 1, { message: 'the signal in GET /api/signals' });
  });

  it("shows the user's own trade at once, with no notice heard, in GET /api/trades and /api/portfolio", async function () {
    const { token } = await newUser(h);
    const misses: string[] = [];
    for (let i = 0; i < 5; i++) {
      for (let k = 0; k < 2; k++) {
        expect((await read(deaf.url, '/api/trades', token)).total).to.equal(i);
        expect((await read(deaf.url, '/api/portfolio', token)).positions).to.have.length(i);
      }
      const [symbol, amount] = ([['ETH', 0.01], ['BTC', 0.001], ['SOL', 0.1], ['ADA', 20], ['DOT', 2]] as const)[i]!;
      const placed = await h.request('POST', '/api/trades', { token, body: { symbol, type: 'BUY', amount } });
      expect(placed.status, JSON.stringify(placed.body)).to.equal(201);
      const trades = await read(deaf.url, '/api/trades', token);
      const portfolio = await read(deaf.url, '/api/portfolio', token);
      if (trades.total !== i + 1 || trades.trades[0]?.id !== placed.body.id || portfolio.positions.length !== i + 1) {
        misses.push(`${i}: total ${trades.total}, newest ${trades.trades[0]?.id} (placed ${placed.body.id}), positions ${portfolio.positions.length}`);
      }
    }
    expect(misses).to.deep.equal([]);
  });

  it('shows what X-Min-Position names at once, with no notice heard', async function () {
    const { userId, token } = await newUser(h);
    for (let i = 0; i < 2; i++) expect((await read(deaf.url, '/api/trades', token)).total).to.equal(0);
    const { position } = await botTrade(userId, 'ETH');
    // Without the header the deaf cache may serve what it holds (the bot is not the caller)...
    expect((await read(deaf.url, '/api/trades', token)).total).to.equal(0);
    // ...with it, the position is honoured.
    expect((await read(deaf.url, '/api/trades', token, { 'x-min-position': position! })).total).to.equal(1);
    expect((await read(deaf.url, '/api/portfolio', token, { 'x-min-position': position! })).positions).to.have.length(1);
  });
});
