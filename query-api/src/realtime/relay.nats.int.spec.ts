/**
 * The relay across processes (local cluster mode): a query-api started as its own process
 * (bin/start-service.ts query-api, on PostgreSQL and NATS, a unique subject prefix) and this test
 * publishing on real NATS as the market feed and other workers would, with real WebSocket clients;
 * a projectors process writes the users read model (a socket's account must exist) and, for the
 * greeting on sign-in, the trading-bots one.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { NatsBus } from '@papertrade/platform/bus/nats-bus';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { ACCOUNT_GONE } from '@papertrade/platform/auth/guards';
import { userStreamId } from '@papertrade/domain/auth/user';
import { userDecider } from '@papertrade/domain/auth/user.decider';
import { USERS_PROJECTION } from '@papertrade/domain/auth/user-view';
import { marketTickSubject, type MarketTick } from '@papertrade/domain/market/contracts';
import { requireServices, NATS_URL } from '../../../test/services';
import { startService, type StartedService } from '../../../test/app-process';
import { clusterEnv, SchemaView } from '../../../test/cluster-support';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { TRADING_BOTS_PROJECTION, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { dropSchema, uniqueSchema } from '../../../test/postgres';
import { waitUntil } from '../../../test/wait';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import { RecordingClient, tick } from './relay-test-client';

describe('real-time relay across processes (query-api service, NATS)', function () {
  this.timeout(90_000);
  let schema = '';
  let queryApi: StartedService | undefined;
  let bus: NatsBus;
  let tokens: TokenService;
  let env: Record<string, string> = {};
  const clients: RecordingClient[] = [];

  let projectors: StartedService | undefined;
  let view: SchemaView | undefined;

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('relay');
    env = clusterEnv(schema);
    tokens = new TokenService(env.JWT_SECRET!);
    queryApi = await startService('bin/start-service.ts', ['query-api'], env);
    // The users read model (a socket's account must exist) and, for the greeting, the trading-bots one.
    projectors = await startService('bin/start-service.ts', ['projectors'], env);
    view = await SchemaView.open(schema);
    bus = await NatsBus.connect(NATS_URL, { prefix: schema, name: 'relay-spec' });
  });

  after(async function () {
    for (const c of clients.splice(0)) c.close();
    await bus?.close();
    await view?.close();
    await projectors?.stop();
    await queryApi?.stop();
    if (schema) await dropSchema(schema);
  });

  /** A registered user, projected, and a token like a sign-in's (with the position at which the account exists). */
  async function registered(): Promise<{ userId: string; token: string }> {
    const userId = randomUUID();
    const now = new Date().toISOString();
    const handler = new CommandHandler(view!.events, () => new Date());
    const { position } = await handler.handle(
      userDecider,
      userStreamId(userId),
      {
        type: 'RegisterUser',
        data: { userId, email: `${userId}@example.com`, username: `u_${userId.slice(0, 8)}`, firstName: null, lastName: null, passwordHash: 'not-a-hash', reservedSince: now, orphanAfterMs: 60_000 },
        metadata: { now },
      },
      { actor: userId, correlationId: randomUUID() },
    );
    expect(await view!.readModels.waitFor([USERS_PROJECTION], position!, 30_000), 'the users projection reached the registration').to.equal(true);
    return { userId, token: tokens.issue(userId, { position }) };
  }

  const connect = async (protocols?: string[]) => {
    const client = await RecordingClient.open(`${queryApi!.url.replace('http', 'ws')}/ws`, protocols);
    clients.push(client);
    return client;
  };

  it('pushes a tick published on NATS to a socket on the query-api process', async function () {
    const client = await connect();
    await bus.publish(marketTickSubject('ethereum'), tick(3_210, 'ethereum'));
    const update = await waitUntil(() => client.of('MARKET_UPDATE')[0], { message: 'a MARKET_UPDATE', timeoutMs: 20_000 });
    expect(update.data).to.include({ coinId: 'ethereum', price: 3_210 });
  });

  it("delivers a user's private push only to that user's socket", async function () {
    const { userId: alice, token: aliceToken } = await registered();
    const { userId: bob, token: bobToken } = await registered();
    const aliceSocket = await connect();
    aliceSocket.send({ type: 'auth', token: aliceToken });
    const bobSocket = await connect(['papertrade', `bearer.${bobToken}`]);
    const visitor = await connect();
    for (const c of [aliceSocket, bobSocket]) await waitUntil(() => c.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });

    await bus.publish(userRealtimeSubject(alice, 'BOT_STATUS'), { status: 'ACTIVE' });
    await bus.publish(userRealtimeSubject(bob, 'ML_UPDATE'), { accuracy: 0.58 });
    // A tick after both pushes: NATS keeps one publisher's order, so once every socket has it, the pushes have been routed.
    await bus.publish(marketTickSubject('bitcoin'), tick(7));
    for (const c of [aliceSocket, bobSocket, visitor]) {
      await waitUntil(() => c.of('MARKET_UPDATE').some((m) => (m.data as MarketTick).price === 7), { message: 'the tick after the pushes' });
    }
    expect(aliceSocket.of('BOT_STATUS').map((m) => m.data)).to.deep.equal([{ status: 'ACTIVE' }]);
    expect(aliceSocket.of('ML_UPDATE')).to.deep.equal([]);
    expect(bobSocket.of('ML_UPDATE').map((m) => m.data)).to.deep.equal([{ accuracy: 0.58 }]);
    expect(bobSocket.of('BOT_STATUS')).to.deep.equal([]);
    expect(visitor.of('BOT_STATUS').concat(visitor.of('ML_UPDATE'))).to.deep.equal([]);
  });

  it('tells a socket that signs in its bot status from the read model the projectors process writes', async function () {
    const { userId: carol, token } = await registered();
    // A socket open while the bot starts gets the projector's push; once it has, a socket that
    // signs in afterwards can only learn the status from the greeting.
    const open = await connect(['papertrade', `bearer.${token}`]);
    await waitUntil(() => open.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
    const handler = new CommandHandler(view!.events, () => new Date());
    await handler.handle(botDecider, botStreamId(carol), { type: 'StartBot', data: { userId: carol, premium: true }, metadata: { now: new Date().toISOString() } }, { actor: 'test', correlationId: randomUUID() });
    await waitUntil(() => open.of('BOT_STATUS').length === 1, { timeoutMs: 30_000, message: 'the push to the open socket' });
    const bots = await view!.readModels.collection<TradingBotView>(TRADING_BOTS_PROJECTION);
    expect(await bots.get(carol)).to.include({ status: 'ACTIVE' });
    const later = await connect(['papertrade', `bearer.${token}`]);
    const greeted = await waitUntil(() => later.of('BOT_STATUS')[0], { timeoutMs: 20_000, message: 'BOT_STATUS on signing in' });
    expect(greeted.data).to.deep.equal({ status: 'ACTIVE' });
    expect(later.messages.map((m) => m.type)).to.deep.equal(['AUTHENTICATED', 'BOT_STATUS']);
  });

  it('refuses a validly signed token whose account does not exist (AUTH_ERROR), as the APIs answer 401', async function () {
    const socket = await connect(['papertrade', `bearer.${tokens.issue(randomUUID())}`]);
    const error = await waitUntil(() => socket.of('AUTH_ERROR')[0], { timeoutMs: 20_000, message: 'AUTH_ERROR' });
    expect(error.data).to.deep.equal({ message: `${ACCOUNT_GONE}; this connection receives public messages only.` });
    expect(socket.of('AUTHENTICATED')).to.deep.equal([]);
  });

  it('coalesces a burst: far fewer updates than ticks, and the last price arrives', async function () {
    const client = await connect();
    const base = 100_000;
    // A coin no other test here ticks, so its first tick is not held by an earlier one.
    for (let i = 1; i <= 200; i++) await bus.publish(marketTickSubject('solana'), tick(base + i, 'solana'));
    const prices = () => client.of('MARKET_UPDATE').map((m) => m.data as MarketTick).filter((t) => t.price > base).map((t) => t.price);
    await waitUntil(() => prices().includes(base + 200), { message: 'the last tick of the burst', timeoutMs: 20_000 });
    // The first goes out at once, the rest are coalesced per 250 ms: a handful, not 200.
    expect(prices().length).to.be.within(2, 10);
    expect(prices()[0]).to.equal(base + 1);
  });

  it('closes its sockets with 1001 (going away) on a clean shutdown', async function () {
    const client = await connect();
    await queryApi!.stop();
    await waitUntil(() => client.closeCode !== undefined, { message: 'the socket closed' });
    expect(client.closeCode).to.equal(1001);
    expect(queryApi!.child.signalCode, 'exited on SIGTERM without needing SIGKILL').to.not.equal('SIGKILL');
  });
});
