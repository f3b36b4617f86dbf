/**
 * The trading-bots projection (PGlite, the projector and the real-time relay on the in-process bus):
 * one document per user with the bot's status and premium; a BotStarted reaches the sockets of that
 * user only, as BOT_STATUS, once the document says ACTIVE; a subscription change alone pushes nothing;
 * a socket that signs in later (a reload, a second tab) is told the bot's status at once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { TRADING_BOTS_PROJECTION, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { accountLookup } from '@papertrade/platform/auth/guards';
import { positionSchema } from '@papertrade/platform/event-store/position';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { RealtimeRelay } from '@papertrade/query-api/realtime/relay';
import { RecordingClient } from '@papertrade/query-api/realtime/relay-test-client';
import { botStatusGreeting } from '@papertrade/query-api/trading/bot-status-greeting';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { publicRealtimeSubject } from '@papertrade/domain/realtime/subjects';

describe('trading-bots projection and BOT_STATUS (PGlite, in-process bus)', function () {
  this.timeout(60_000);
  let harness: Harness;
  let relay: RealtimeRelay;
  let server: http.Server;
  let port: number;
  const clients: RecordingClient[] = [];
  const tokens = new TokenService('test-secret-test-secret-test-secret!!', () => new Date());

  before(async function () {
    harness = await startHarness();
    server = http.createServer((_req, res) => res.writeHead(404).end());
    const { readModels } = harness.rt.infra;
    relay = new RealtimeRelay({ bus: harness.rt.infra.bus, tokens, accounts: accountLookup(readModels), logger: silentLogger, greet: botStatusGreeting(readModels) }).attach(server);
    await relay.start();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async function () {
    for (const c of clients) c.close();
    await relay?.close();
    await new Promise((resolve) => server?.close(resolve));
    await harness?.stop();
  });

  /** A registered user (the relay, like the APIs, refuses a token whose account does not exist). */
  async function newUser(): Promise<{ userId: string; position: string }> {
    const id = randomUUID().slice(0, 8);
    return harness.signup({ email: `bot.${id}@example.com`, username: `bot_${id}` });
  }

  async function socketOf({ userId, position }: { userId: string; position: string }): Promise<RecordingClient> {
    // The position at which the account exists, as a sign-in's token carries: the relay waits for the users projection to get there.
    const token = tokens.issue(userId, { position: positionSchema.parse(position) });
    const client = await RecordingClient.open(`ws://127.0.0.1:${port}/ws`, ['papertrade', `bearer.${token}`]);
    clients.push(client);
    await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
    return client;
  }

  it('pushes BOT_STATUS to the bot owner only, after the document is written', async function () {
    const handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date());
    const aliceUser = await newUser();
    const bobUser = await newUser();
    const [alice, bob] = [aliceUser.userId, bobUser.userId];
    const aliceSocket = await socketOf(aliceUser);
    const bobSocket = await socketOf(bobUser);
    const visitor = await RecordingClient.open(`ws://127.0.0.1:${port}/ws`);
    clients.push(visitor);
    const meta = { actor: 'test', correlationId: randomUUID() };
    const now = new Date().toISOString();
    await handler.handle(subscriptionDecider, subscriptionStreamId(alice), { type: 'ChangeSubscriptionByAdmin', data: { userId: alice, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now } }, meta);
    await handler.handle(subscriptionDecider, subscriptionStreamId(bob), { type: 'ChangeSubscriptionByAdmin', data: { userId: bob, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now } }, meta);
    await harness.projector.caughtUp();
    await handler.handle(botDecider, botStreamId(alice), { type: 'StartBot', data: { userId: alice, premium: true }, metadata: { now } }, meta);

    const pushed = await waitUntil(() => aliceSocket.of('BOT_STATUS')[0], { message: "BOT_STATUS on alice's socket" });
    expect(pushed.data).to.deep.equal({ status: 'ACTIVE' });
    // The read model already says so when the push arrives.
    const bots = await harness.rt.infra.readModels.collection<TradingBotView>(TRADING_BOTS_PROJECTION);
    expect(await bots.get(alice)).to.include({ userId: alice, status: 'ACTIVE', premium: true, tier: 'PREMIUM' });
    expect(await bots.get(bob)).to.include({ status: 'STOPPED', premium: true });

    // Bob's stop of a stopped bot appends nothing; alice's stop is the next push, to her only.
    await handler.handle(botDecider, botStreamId(alice), { type: 'StopBot', data: { userId: alice }, metadata: { now } }, meta);
    await waitUntil(() => aliceSocket.of('BOT_STATUS').length === 2, { message: 'the second BOT_STATUS' });
    expect(aliceSocket.of('BOT_STATUS').map((m) => m.data)).to.deep.equal([{ status: 'ACTIVE' }, { status: 'STOPPED' }]);
    expect(bobSocket.of('BOT_STATUS'), 'subscription changes push nothing, and nothing of alice reaches bob').to.deep.equal([]);
    expect(visitor.of('BOT_STATUS')).to.deep.equal([]);
    expect(await bots.find({ where: { status: 'ACTIVE', premium: true } })).to.deep.equal([]);

    // A rebuild replays history into a new generation without pushing it again; the new generation pushes once live.
    await harness.projector.rebuild(TRADING_BOTS_PROJECTION);
    await handler.handle(botDecider, botStreamId(bob), { type: 'StartBot', data: { userId: bob, premium: true }, metadata: { now } }, meta);
    await waitUntil(() => bobSocket.of('BOT_STATUS').length === 1, { message: "BOT_STATUS on bob's socket after the rebuild" });
    expect(bobSocket.of('BOT_STATUS').map((m) => m.data)).to.deep.equal([{ status: 'ACTIVE' }]);
    expect(aliceSocket.of('BOT_STATUS'), 'nothing replayed to alice').to.have.length(2);
  });

  it('tells a socket that signs in later the status the read model holds (a reloaded dashboard of a running bot reads ACTIVE)', async function () {
    const handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date());
    const carolUser = await newUser();
    const carol = carolUser.userId;
    const meta = { actor: 'test', correlationId: randomUUID() };
    const now = new Date().toISOString();
    await handler.handle(subscriptionDecider, subscriptionStreamId(carol), { type: 'ChangeSubscriptionByAdmin', data: { userId: carol, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now } }, meta);
    await handler.handle(botDecider, botStreamId(carol), { type: 'StartBot', data: { userId: carol, premium: true }, metadata: { now } }, meta);
    await harness.projector.caughtUp();

    const reloaded = await socketOf(carolUser);
    const greeted = await waitUntil(() => reloaded.of('BOT_STATUS')[0], { message: 'BOT_STATUS on a socket opened while the bot runs' });
    expect(greeted.data).to.deep.equal({ status: 'ACTIVE' });
    expect(reloaded.messages.map((m) => m.type)).to.deep.equal(['AUTHENTICATED', 'BOT_STATUS']);

    // Stopped: the open socket gets the change, and a socket opened afterwards reads STOPPED.
    await handler.handle(botDecider, botStreamId(carol), { type: 'StopBot', data: { userId: carol }, metadata: { now } }, meta);
    await waitUntil(() => reloaded.of('BOT_STATUS').length === 2, { message: 'the STOPPED push' });
    const later = await socketOf(carolUser);
    const again = await waitUntil(() => later.of('BOT_STATUS')[0], { message: 'BOT_STATUS on a socket opened after the stop' });
    expect(again.data).to.deep.equal({ status: 'STOPPED' });

    // Someone who never had a bot is told nothing (the client's default, STOPPED, is right).
    const newcomer = await socketOf(await newUser());
    await harness.rt.infra.bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), {});
    await waitUntil(() => newcomer.of('ANNOUNCEMENT').length === 1, { message: 'a later public push' });
    expect(newcomer.of('BOT_STATUS')).to.deep.equal([]);
  });
});
