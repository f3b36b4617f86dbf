/**
 * Mirror to testnet against the fake exchange (embedded stores on PGlite, the projector running,
 * ccxt pointed at test/fake-exchange-server.ts): a bot's paper trade of a user with a connected
 * testnet account and the mirror on becomes one market order on the testnet, whose fill is recorded
 * beside the paper fill and read by GET /api/exchanges/mirror-orders; a replay from the start, a
 * second worker and an attempt interrupted after its request never order twice; manual trades, a
 * mirror switched off and trades from before it was switched on are not mirrored; a refusal of the
 * testnet is recorded as a failure.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { exchangeStreamId, mirrorClientOrderId } from '@papertrade/domain/exchanges/exchange';
import { exchangeDecider } from '@papertrade/domain/exchanges/exchange.decider';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { FakeExchangeServer } from '../../test/fake-exchange-server';
import { startHarness, type Harness } from '../../test/api-harness';
import { waitUntil } from '../../test/wait';
import { PROCESS_CHECKPOINT_COLLECTION } from './event-follower';
import { TESTNET_MIRROR_ACTOR, TestnetMirror } from './testnet-mirror';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('testnet mirror worker (PGlite, fake exchange)', function () {
  this.timeout(120_000);
  let h: Harness;
  let fake: FakeExchangeServer;
  let handler: CommandHandler;
  const workers: TestnetMirror[] = [];

  before(async function () {
    fake = await FakeExchangeServer.start();
    h = await startHarness({ EXCHANGE_API_URL: fake.baseUrl, EXCHANGE_TIMEOUT_MS: '2000' });
    handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
  });
  afterEach(async function () {
    for (const w of workers.splice(0)) await w.stop();
  });
  after(async function () {
    await h?.stop();
    await fake?.close();
  });

  function worker(): TestnetMirror {
    const { eventStore, documents, leases, readModels } = h.rt.infra;
    const w = new TestnetMirror({ eventStore, documents, leases, readModels, handler, secrets: h.rt.exchangeSecrets, gateway: h.rt.exchangeGateway, clock: () => new Date(), logger: silentLogger });
    workers.push(w);
    return w;
  }

  /** A premium user with a connected testnet account on `exchange` and the mirror on (through the API). */
  async function trader(exchange: 'binance' | 'coinbase', options: { mirror?: boolean; behaviour?: 'ok' | 'rate-limited' } = {}) {
    const t = randomUUID().slice(0, 8);
    const email = `mirror.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `mirror_${t}` });
    const admin = await h.admin();
    await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    await h.projector.caughtUp();
    const token = await h.login(email, 'secret1');
    const creds = { apiKey: `mirror-key-${t}`, secretKey: b64(`mirror-secret-${t}-xyz`), ...(exchange === 'coinbase' ? { passphrase: `pp-${t}` } : {}) };
    fake.addAccount({ exchange, apiKey: creds.apiKey, secret: creds.secretKey, ...(creds.passphrase ? { passphrase: creds.passphrase } : {}), balances: { USDT: 10_000, USD: 10_000, BTC: 1 } });
    expect((await h.request('POST', `/api/exchanges/${exchange}/config`, { token, body: creds })).status).to.equal(200);
    expect((await h.request('POST', `/api/exchanges/${exchange}/test`, { token })).body.status).to.equal('connected');
    if (options.behaviour) fake.addAccount({ exchange, apiKey: creds.apiKey, secret: creds.secretKey, ...(creds.passphrase ? { passphrase: creds.passphrase } : {}), balances: {}, behaviour: options.behaviour });
    if (options.mirror !== false) expect((await h.request('POST', `/api/exchanges/${exchange}/mirror`, { token, body: { mirrorToTestnet: true } })).status).to.equal(200);
    await h.projector.caughtUp();
    return { userId, token };
  }

  /** A paper trade as the bot places it (a signal's source), or a manual one. */
  async function paperTrade(userId: string, options: { bot?: boolean; symbol?: string; side?: 'BUY' | 'SELL' } = {}) {
    const tradeId = randomUUID();
    await handler.handle(
      portfolioDecider,
      portfolioStreamId(userId),
      {
        type: 'PlaceSimulatedTrade',
        data: {
          userId,
          tradeId,
          symbol: options.symbol ?? 'BTC',
          side: options.side ?? 'BUY',
          amount: 0.01,
          price: 64_900,
          source: options.bot === false ? { kind: 'MANUAL' } : { kind: 'SIGNAL', eventId: randomUUID(), signalId: randomUUID(), signalType: 'BUY', candleTime: new Date().toISOString() },
        },
        metadata: { now: new Date().toISOString() },
      },
      { actor: options.bot === false ? userId : 'trading-bot', correlationId: randomUUID() },
    );
    return tradeId;
  }

  const ordersOf = (tradeId: string, userId: string, exchange: 'binance' | 'coinbase') => fake.orders.filter((o) => o.clientOrderId === mirrorClientOrderId(exchange, userId, tradeId));

  async function mirrored(token: string, tradeId: string, status = 'filled') {
    return waitUntil(
      async () => {
        await h.projector.caughtUp();
        const res = await h.request('GET', '/api/exchanges/mirror-orders', { token });
        return res.body.orders.find((o: { tradeId: string; status: string }) => o.tradeId === tradeId && o.status === status);
      },
      { timeoutMs: 20_000, message: `mirror order of ${tradeId} ${status}` },
    );
  }

  it("a bot's paper trade becomes one testnet market order, its fill shown beside the paper fill", async function () {
    const user = await trader('binance');
    await worker().start();
    const tradeId = await paperTrade(user.userId);
    const order = await mirrored(user.token, tradeId);
    expect(order).to.deep.include({ exchangeId: 'binance', market: 'BTC/USDT', side: 'BUY', amount: 0.01, paperPrice: 64_900, testnetPrice: 65_032.5, testnetAmount: 0.01, error: null });
    expect(order.differencePercent).to.equal(0.2042);
    expect(ordersOf(tradeId, user.userId, 'binance')).to.have.length(1);
    const events = await h.rt.infra.eventStore.readStream(exchangeStreamId(user.userId, 'binance'));
    expect(events.map((e) => e.type).slice(-2)).to.deep.equal(['MirrorOrderRequested', 'MirrorOrderFilled']);
    expect(events.at(-1)!.metadata.userId).to.equal(TESTNET_MIRROR_ACTOR);
  });

  it('on Coinbase Exchange too (BTC-USD), and a SELL sells', async function () {
    const user = await trader('coinbase');
    await worker().start();
    const tradeId = await paperTrade(user.userId);
    expect((await mirrored(user.token, tradeId)).market).to.equal('BTC/USD');
    const sold = await paperTrade(user.userId, { side: 'SELL' });
    const order = await mirrored(user.token, sold);
    expect(order).to.deep.include({ side: 'SELL', testnetPrice: 64_967.5 });
    expect(fake.orders.filter((o) => o.exchange === 'coinbase' && o.side === 'sell')).to.have.length.at.least(1);
  });

  it('a replay from the start and a second worker never order twice', async function () {
    const user = await trader('binance');
    const first = worker();
    await first.start();
    const tradeId = await paperTrade(user.userId);
    await mirrored(user.token, tradeId);
    await first.stop();
    // Forget the checkpoint: the worker follows the whole store again, with a second one racing it.
    await h.rt.infra.documents.collection(PROCESS_CHECKPOINT_COLLECTION).delete('testnet-mirror');
    const [a, b] = [worker(), worker()];
    await Promise.all([a.start(), b.start()]);
    const marker = await paperTrade(user.userId, { symbol: 'ETH' });
    await mirrored(user.token, marker);
    expect(ordersOf(tradeId, user.userId, 'binance')).to.have.length(1);
    expect(ordersOf(marker, user.userId, 'binance')).to.have.length(1);
  });

  it('an attempt interrupted after its request is not sent again: its outcome reads unknown', async function () {
    const user = await trader('binance');
    const tradeId = await paperTrade(user.userId);
    // What a worker that died between the request and the order (or its outcome) leaves behind.
    const key = `request:binance:${tradeId}`;
    await handler.handle(
      exchangeDecider,
      exchangeStreamId(user.userId, 'binance'),
      {
        type: 'RequestMirrorOrder',
        data: { userId: user.userId, exchangeId: 'binance', tradeId, market: 'BTC/USDT', side: 'BUY', amount: 0.01, paperPrice: 64_900, clientOrderId: mirrorClientOrderId('binance', user.userId, tradeId), paperPlacedAt: new Date().toISOString() },
        metadata: { now: new Date().toISOString() },
      },
      { actor: TESTNET_MIRROR_ACTOR, correlationId: tradeId, idempotency: { scope: TESTNET_MIRROR_ACTOR, key, requestHash: key } },
    );
    const w = worker();
    await w.start();
    const order = await mirrored(user.token, tradeId, 'failed');
    expect(order.error.message).to.match(/Not sent again/);
    expect(ordersOf(tradeId, user.userId, 'binance')).to.deep.equal([]);
  });

  it('manual trades, a mirror switched off, and a trader without the mirror send nothing', async function () {
    const on = await trader('binance');
    const off = await trader('binance', { mirror: false });
    const w = worker();
    await w.start();
    const manual = await paperTrade(on.userId, { bot: false });
    const notMirrored = await paperTrade(off.userId);
    await h.request('POST', '/api/exchanges/binance/mirror', { token: on.token, body: { mirrorToTestnet: false } });
    await h.projector.caughtUp();
    const afterOff = await paperTrade(on.userId);
    // A marker trade of a third trader, mirrored: the worker follows the global order one event at a
    // time, so it has handled the three trades before it.
    const marker = await trader('binance');
    const markerTrade = await paperTrade(marker.userId);
    await mirrored(marker.token, markerTrade);
    for (const [trade, userId] of [[manual, on.userId], [notMirrored, off.userId], [afterOff, on.userId]] as const) expect(ordersOf(trade, userId, 'binance')).to.deep.equal([]);
    expect((await h.request('GET', '/api/exchanges/mirror-orders', { token: on.token })).body.orders).to.deep.equal([]);
  });

  it('a testnet that refuses (rate limited) is recorded as a failure, with its message', async function () {
    const user = await trader('binance', { behaviour: 'rate-limited' });
    await worker().start();
    const tradeId = await paperTrade(user.userId);
    const order = await mirrored(user.token, tradeId, 'failed');
    expect(order.error.kind).to.equal('rate-limited');
    expect(order.testnetPrice).to.equal(null);
  });
});

