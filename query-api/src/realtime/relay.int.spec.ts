/**
 * The relay on a real HTTP server with real WebSocket clients, fed by the in-process bus (the
 * embedded mode). The NATS path across processes: relay.nats.int.spec.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type net from 'node:net';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { MemoryBus } from '@papertrade/platform/bus/memory-bus';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { silentLogger } from '@papertrade/platform/config/logger';
import { ACCOUNT_GONE, ACCOUNT_NOT_YET } from '@papertrade/platform/auth/guards';
import { marketTickSubject, type MarketTick } from '@papertrade/domain/market/contracts';
import { serverMessageSchema } from '@papertrade/domain/realtime/contracts';
import { waitUntil } from '../../../test/wait';
import { CLOSE_POLICY_VIOLATION, CLOSE_TOO_SLOW, RealtimeRelay, type RelayDeps, type RelayOptions } from './relay';
import type { RelayFrame } from './messages';
import { publicRealtimeSubject, userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import { openNonReadingSocket, rawHandshake, RecordingClient, tick } from './relay-test-client';

const SECRET = 'relay-spec-secret-relay-spec-secret!!';

describe('real-time relay (in-process bus)', function () {
  let bus: MemoryBus;
  let relay: RealtimeRelay;
  let server: http.Server;
  let port: number;
  let now = new Date();
  const tokens = new TokenService(SECRET, () => now);
  const clients: RecordingClient[] = [];
  const raw: net.Socket[] = [];
  /**
   * The accounts that exist, standing in for the users read model (the real lookup, guards.ts
   * accountLookup, is wired in bin/start.ts and exercised in bin/realtime.int.spec.ts): `issue`
   * registers the user it signs a token for; a token from `tokens.issue` alone names no account.
   */
  const registered = new Set<string>();
  const issue = (userId: string) => {
    registered.add(userId);
    return tokens.issue(userId);
  };
  const accounts: RelayDeps['accounts'] = async (claims) => (registered.has(claims.userId) ? { user: { id: claims.userId } } : { error: ACCOUNT_GONE });

  async function start(options: RelayOptions = {}, extra: Partial<Pick<RelayDeps, 'greet' | 'logger' | 'accounts'>> = {}): Promise<void> {
    bus = new MemoryBus();
    server = http.createServer((_req, res) => res.writeHead(404).end());
    relay = new RealtimeRelay({ bus, tokens, accounts, logger: silentLogger, ...extra }, options).attach(server);
    await relay.start();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }

  async function connect(protocols?: string[], path = '/ws', headers?: Record<string, string>): Promise<RecordingClient> {
    const client = await RecordingClient.open(`ws://127.0.0.1:${port}${path}`, protocols, headers);
    clients.push(client);
    return client;
  }

  afterEach(async function () {
    now = new Date();
    for (const c of clients.splice(0)) c.close();
    for (const s of raw.splice(0)) s.destroy();
    await relay?.close();
    await new Promise((resolve) => server?.close(resolve));
    await bus?.close();
  });

  describe('with the default throttle', function () {
    beforeEach(() => start());

    it('pushes a tick to a public socket as MARKET_UPDATE', async function () {
      const client = await connect();
      await bus.publish(marketTickSubject('bitcoin'), tick(50_000));
      const update = await waitUntil(() => client.of('MARKET_UPDATE')[0], { message: 'a MARKET_UPDATE' });
      expect(update).to.deep.include({ type: 'MARKET_UPDATE' });
      expect(update.data).to.include({ coinId: 'bitcoin', symbol: 'BTC', price: 50_000 });
    });

    it('ignores a payload on market.tick.* that is not a valid tick', async function () {
      const client = await connect();
      await bus.publish(marketTickSubject('bitcoin'), { coinId: 'bitcoin', price: -1 });
      await bus.publish(marketTickSubject('ethereum'), tick(3_000, 'ethereum'));
      await waitUntil(() => client.of('MARKET_UPDATE').length > 0, { message: 'the valid tick' });
      expect(client.of('MARKET_UPDATE').map((m) => (m.data as MarketTick).coinId)).to.deep.equal(['ethereum']);
    });

    it('sends a private push only to the sockets authenticated as that user (first-message auth and subprotocol)', async function () {
      const alice = randomUUID();
      const bob = randomUUID();
      const aliceByMessage = await connect();
      aliceByMessage.send({ type: 'auth', token: issue(alice) });
      const aliceByProtocol = await connect(['papertrade', `bearer.${issue(alice)}`]);
      expect(aliceByProtocol.ws.protocol, 'the token is not echoed back').to.equal('papertrade');
      const bobSocket = await connect(['papertrade', `bearer.${issue(bob)}`]);
      const visitor = await connect();
      for (const c of [aliceByMessage, aliceByProtocol, bobSocket]) await waitUntil(() => c.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
      expect(aliceByMessage.of('AUTHENTICATED')[0]!.data).to.deep.equal({ userId: alice });

      await bus.publish(userRealtimeSubject(alice, 'BOT_STATUS'), { status: 'ACTIVE' });
      await bus.publish(userRealtimeSubject(bob, 'ML_UPDATE'), { accuracy: 0.61 });
      await bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), { text: 'hello' });
      for (const c of [aliceByMessage, aliceByProtocol, bobSocket, visitor]) await waitUntil(() => c.of('ANNOUNCEMENT').length === 1, { message: 'the public push' });

      for (const c of [aliceByMessage, aliceByProtocol]) {
        expect(c.of('BOT_STATUS').map((m) => m.data)).to.deep.equal([{ status: 'ACTIVE' }]);
        expect(c.of('ML_UPDATE')).to.deep.equal([]);
      }
      expect(bobSocket.of('ML_UPDATE').map((m) => m.data)).to.deep.equal([{ accuracy: 0.61 }]);
      expect(bobSocket.of('BOT_STATUS')).to.deep.equal([]);
      expect(visitor.of('BOT_STATUS').concat(visitor.of('ML_UPDATE'))).to.deep.equal([]);
    });

    it('answers a bad token with AUTH_ERROR and keeps the socket public (and logout makes it public)', async function () {
      const user = randomUUID();
      const client = await connect();
      client.send({ type: 'auth', token: issue(user) });
      await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
      client.send({ type: 'auth', token: 'not-a-token' });
      await waitUntil(() => client.of('AUTH_ERROR').length === 1, { message: 'AUTH_ERROR' });
      await bus.publish(userRealtimeSubject(user, 'BOT_STATUS'), { status: 'ACTIVE' });
      await bus.publish(marketTickSubject('bitcoin'), tick(1));
      await waitUntil(() => client.of('MARKET_UPDATE').length === 1, { message: 'the public tick' });
      expect(client.of('BOT_STATUS'), 'no private push after a bad token').to.deep.equal([]);
      expect(client.ws.readyState).to.equal(client.ws.OPEN);

      client.send({ type: 'auth', token: issue(user) });
      await waitUntil(() => client.of('AUTHENTICATED').length === 2, { message: 'authenticated again' });
      client.send({ type: 'logout' });
      await waitUntil(() => client.of('LOGGED_OUT').length === 1, { message: 'LOGGED_OUT' });
      await bus.publish(userRealtimeSubject(user, 'BOT_STATUS'), { status: 'STOPPED' });
      await bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), {});
      await waitUntil(() => client.of('ANNOUNCEMENT').length === 1, { message: 'a later public push' });
      expect(client.of('BOT_STATUS')).to.deep.equal([]);
      // What the relay sent itself is what web/ parses with the shared contract (ANNOUNCEMENT is a
      // type the contract does not know, which a client ignores).
      for (const frame of client.messages.filter((m) => m.type !== 'ANNOUNCEMENT')) {
        expect(serverMessageSchema.safeParse(frame).success, JSON.stringify(frame)).to.equal(true);
      }
    });

    it('stops private pushes once the token has expired', async function () {
      const user = randomUUID();
      const client = await connect(['papertrade', `bearer.${issue(user)}`]);
      await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
      now = new Date(now.getTime() + 25 * 60 * 60 * 1000);
      await bus.publish(userRealtimeSubject(user, 'BOT_STATUS'), { status: 'ACTIVE' });
      await waitUntil(() => client.of('AUTH_ERROR').length === 1, { message: 'AUTH_ERROR for the expired token' });
      expect(client.of('BOT_STATUS')).to.deep.equal([]);
    });

    it('answers malformed or unknown client messages with ERROR and stays open', async function () {
      const client = await connect();
      client.ws.send('{not json');
      client.send({ type: 'subscribe', channel: 'everything' });
      await waitUntil(() => client.of('ERROR').length === 2, { message: 'two ERROR messages' });
      expect(client.ws.readyState).to.equal(client.ws.OPEN);
    });

    it('refuses a token in the URL (400) and any other path (404)', async function () {
      const token = issue(randomUUID());
      for (const query of [`?token=${token}`, `?access_token=${token}`, `?t=${token}`]) {
        const error = await connect(undefined, `/ws${query}`).then(() => null, (e: Error) => e);
        expect(error?.message, query).to.equal('handshake answered 400');
      }
      const other = await connect(undefined, '/socket').then(() => null, (e: Error) => e);
      expect(other?.message).to.equal('handshake answered 404');
      expect(relay.stats().sockets).to.equal(0);
    });

    it('never echoes the bearer token in the handshake: papertrade is selected, and a bearer protocol alone is refused (400)', async function () {
      const token = issue(randomUUID());
      const both = await rawHandshake(port, { 'Sec-WebSocket-Protocol': `papertrade, bearer.${token}` });
      expect(both.status).to.equal(101);
      expect(both.head).to.match(/\r\nSec-WebSocket-Protocol: papertrade(\r\n|$)/i);
      expect(both.head).to.not.include(token);
      const alone = await rawHandshake(port, { 'Sec-WebSocket-Protocol': `bearer.${token}` });
      expect(alone.status).to.equal(400);
      expect(alone.head + alone.body).to.not.include(token);
      expect(JSON.parse(alone.body).detail).to.match(/^Offer the subprotocol papertrade beside bearer\.<token>/);
      // Through a real client too: the socket works, and its protocol is papertrade.
      const client = await connect(['papertrade', `bearer.${token}`]);
      expect(client.ws.protocol).to.equal('papertrade');
      await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
    });

    it('refuses a validly signed token whose account does not exist, as HTTP does (AUTH_ERROR, public socket)', async function () {
      const ghost = randomUUID();
      const token = tokens.issue(ghost); // signed with the right secret, but no such account
      const byMessage = await connect();
      byMessage.send({ type: 'auth', token });
      const byProtocol = await connect(['papertrade', `bearer.${token}`]);
      for (const c of [byMessage, byProtocol]) {
        const error = await waitUntil(() => c.of('AUTH_ERROR')[0], { message: 'AUTH_ERROR' });
        expect(error.data).to.deep.equal({ message: `${ACCOUNT_GONE}; this connection receives public messages only.` });
        expect(c.of('AUTHENTICATED')).to.deep.equal([]);
      }
      await bus.publish(userRealtimeSubject(ghost, 'BOT_STATUS'), { status: 'ACTIVE' });
      await bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), {});
      for (const c of [byMessage, byProtocol]) await waitUntil(() => c.of('ANNOUNCEMENT').length === 1, { message: 'the public push' });
      for (const c of [byMessage, byProtocol]) expect(c.of('BOT_STATUS')).to.deep.equal([]);
      expect(relay.stats().authenticated).to.equal(0);
    });

    it('closes a socket that sends more messages than its bucket allows with 1008', async function () {
      const client = await connect();
      const token = issue(randomUUID());
      for (let i = 0; i < 200; i++) client.send({ type: 'auth', token });
      await waitUntil(() => client.closeCode !== undefined, { message: 'the socket closed' });
      expect(client.closeCode).to.equal(CLOSE_POLICY_VIOLATION);
      // At most the default burst was read (an auth overtaken by the next one, or answered after the
      // close, is not answered); the rest was not even parsed.
      expect(client.of('AUTHENTICATED').length).to.be.at.most(10);
      expect(relay.stats().closedTooManyMessages).to.equal(1);
    });

    it('coalesces a burst of ticks per coin: the first at once, then only the latest', async function () {
      const client = await connect();
      for (let i = 1; i <= 50; i++) {
        await bus.publish(marketTickSubject('bitcoin'), tick(i));
        await bus.publish(marketTickSubject('ethereum'), tick(1000 + i, 'ethereum'));
      }
      const prices = (coin: string) => client.of('MARKET_UPDATE').map((m) => m.data as MarketTick).filter((t) => t.coinId === coin).map((t) => t.price);
      await waitUntil(() => prices('bitcoin').includes(50) && prices('ethereum').includes(1050), { message: 'the last tick of each coin' });
      expect(prices('bitcoin')).to.deep.equal([1, 50]);
      expect(prices('ethereum')).to.deep.equal([1001, 1050]);
    });
  });

  describe('greeting a socket that authenticates with its user\'s current state', function () {
    /** What `greet` answers per user; a user mapped to a Deferred answers when the test resolves it. */
    const states = new Map<string, RelayFrame[] | Promise<RelayFrame[]>>();
    /** Users whose state cannot be read. */
    const failing = new Set<string>();
    const asked: string[] = [];
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const greet = async (userId: string) => {
      asked.push(userId);
      if (failing.has(userId)) throw new Error('read model unavailable');
      return (await states.get(userId)) ?? [];
    };
    /** Lets every continuation of an already-resolved promise run (the relay's send after the greeting resolves). */
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    beforeEach(async () => {
      states.clear();
      failing.clear();
      asked.length = 0;
      warnings.length = 0;
      await start({}, { greet, logger });
    });

    it('sends the state right after AUTHENTICATED, to that user only; visitors and users without state get nothing', async function () {
      const alice = randomUUID();
      const bob = randomUUID();
      states.set(alice, [{ type: 'BOT_STATUS', data: { status: 'ACTIVE' } }]);
      const aliceByProtocol = await connect(['papertrade', `bearer.${issue(alice)}`]);
      const aliceByMessage = await connect();
      aliceByMessage.send({ type: 'auth', token: issue(alice) });
      const bobSocket = await connect(['papertrade', `bearer.${issue(bob)}`]);
      const visitor = await connect();
      for (const c of [aliceByProtocol, aliceByMessage]) {
        await waitUntil(() => c.of('BOT_STATUS').length === 1, { message: "alice's greeting" });
        expect(c.messages.map((m) => m.type)).to.deep.equal(['AUTHENTICATED', 'BOT_STATUS']);
        expect(c.of('BOT_STATUS')[0]!.data).to.deep.equal({ status: 'ACTIVE' });
        expect(serverMessageSchema.safeParse(c.of('BOT_STATUS')[0]).success).to.equal(true);
      }
      await waitUntil(() => bobSocket.of('AUTHENTICATED').length === 1, { message: "bob's AUTHENTICATED" });
      await waitUntil(() => asked.includes(bob), { message: "bob's state to be asked for" });
      await bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), {});
      for (const c of [bobSocket, visitor]) await waitUntil(() => c.of('ANNOUNCEMENT').length === 1, { message: 'a later public push' });
      expect(bobSocket.of('BOT_STATUS')).to.deep.equal([]);
      expect(visitor.of('BOT_STATUS')).to.deep.equal([]);
      expect(asked.filter((u) => u === alice)).to.have.length(2);
    });

    it('leaves out a type pushed while the state was read (the push is newer), and drops a greeting for an earlier sign-in', async function () {
      const alice = randomUUID();
      let answer!: (frames: RelayFrame[]) => void;
      states.set(alice, new Promise<RelayFrame[]>((resolve) => (answer = resolve)));
      const client = await connect(['papertrade', `bearer.${issue(alice)}`]);
      await waitUntil(() => asked.includes(alice), { message: 'the greeting to be asked for' });
      await bus.publish(userRealtimeSubject(alice, 'BOT_STATUS'), { status: 'STOPPED' });
      await waitUntil(() => client.of('BOT_STATUS').length === 1, { message: 'the push' });
      answer([{ type: 'BOT_STATUS', data: { status: 'ACTIVE' } }, { type: 'ML_UPDATE', data: { accuracy: 61 } }]);
      await settled();
      await bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), {});
      await waitUntil(() => client.of('ANNOUNCEMENT').length === 1, { message: 'a later public push' });
      expect(client.of('BOT_STATUS').map((m) => m.data), 'the stale read is not sent after the push').to.deep.equal([{ status: 'STOPPED' }]);
      expect(client.of('ML_UPDATE').map((m) => m.data), 'the other type still is').to.deep.equal([{ accuracy: 61 }]);

      // Signed in again, then out before the state arrives: nothing is sent to the now public socket.
      states.set(alice, new Promise<RelayFrame[]>((resolve) => (answer = resolve)));
      asked.length = 0;
      client.send({ type: 'auth', token: issue(alice) });
      await waitUntil(() => asked.includes(alice), { message: 'the second greeting to be asked for' });
      client.send({ type: 'logout' });
      await waitUntil(() => client.of('LOGGED_OUT').length === 1, { message: 'LOGGED_OUT' });
      answer([{ type: 'BOT_STATUS', data: { status: 'ACTIVE' } }]);
      await settled();
      await bus.publish(publicRealtimeSubject('ANNOUNCEMENT'), {});
      await waitUntil(() => client.of('ANNOUNCEMENT').length === 2, { message: 'the second public push' });
      expect(client.of('BOT_STATUS')).to.have.length(1);
    });

    it('a greeting that fails is logged, and the socket still gets its pushes', async function () {
      const alice = randomUUID();
      failing.add(alice);
      const client = await connect(['papertrade', `bearer.${issue(alice)}`]);
      await waitUntil(() => warnings.includes('real-time greeting failed'), { message: 'the failure to be logged' });
      await bus.publish(userRealtimeSubject(alice, 'BOT_STATUS'), { status: 'ACTIVE' });
      await waitUntil(() => client.of('BOT_STATUS').length === 1, { message: 'the push after the failed greeting' });
      expect(client.ws.readyState).to.equal(client.ws.OPEN);
    });
  });

  it('refuses a handshake beyond maxSockets (503) and accepts again once one has gone', async function () {
    await start({ maxSockets: 1 });
    const first = await connect();
    const refused = await connect().then(() => null, (e: Error) => e);
    expect(refused?.message).to.equal('handshake answered 503');
    first.close();
    await waitUntil(() => relay.stats().sockets === 0, { message: 'the first socket gone' });
    await connect();
  });

  it('holds at most maxSocketsPerAddress sockets per address (429 beyond), freeing a slot when one closes', async function () {
    await start({ maxSocketsPerAddress: 2 });
    const first = await connect();
    await connect();
    const refused = await connect().then(() => null, (e: Error) => e);
    expect(refused?.message).to.equal('handshake answered 429');
    const answer = await rawHandshake(port);
    expect(answer.status).to.equal(429);
    expect(JSON.parse(answer.body).detail).to.equal('At most 2 real-time connections per address are served; close another tab or try again later.');
    // X-Forwarded-For is anyone's to send: without trustProxy it does not make another address.
    const forged = await connect(undefined, '/ws', { 'X-Forwarded-For': '198.51.100.7' }).then(() => null, (e: Error) => e);
    expect(forged?.message).to.equal('handshake answered 429');
    first.close();
    await waitUntil(() => relay.stats().sockets === 1, { message: 'the first socket gone' });
    await connect();
    expect(relay.stats().refusedPerAddress).to.equal(3);
  });

  it('counts sockets by the X-Forwarded-For address behind the gateway (trustProxy)', async function () {
    await start({ maxSocketsPerAddress: 1, trustProxy: true });
    const from = (address: string) => connect(undefined, '/ws', { 'X-Forwarded-For': address });
    await from('198.51.100.1');
    await from('198.51.100.2, 10.0.0.1');
    const refused = await from('198.51.100.1').then(() => null, (e: Error) => e);
    expect(refused?.message).to.equal('handshake answered 429');
    expect(relay.stats().sockets).to.equal(2);
  });

  it('meters messages with a token bucket: a burst, then a refill per second, then 1008', async function () {
    let clock = 0;
    await start({ messageBurst: 3, messageRefillPerSecond: 2, now: () => clock });
    const client = await connect();
    // Messages the relay answers at once, each with an ERROR, so every one that was read shows.
    const unknown = { type: 'subscribe' };
    for (let i = 0; i < 3; i++) client.send(unknown);
    await waitUntil(() => client.of('ERROR').length === 3, { message: 'the burst answered' });
    clock += 500; // one message's worth
    client.send(unknown);
    await waitUntil(() => client.of('ERROR').length === 4, { message: 'the refilled message answered' });
    client.send(unknown);
    await waitUntil(() => client.closeCode !== undefined, { message: 'the socket closed' });
    expect(client.closeCode).to.equal(CLOSE_POLICY_VIOLATION);
    expect(client.of('ERROR')).to.have.length(4);
  });

  it('answers a token whose account is not readable yet with AUTH_ERROR, and one that cannot be checked too; a later auth still works', async function () {
    const late = randomUUID();
    let failing = true;
    await start({}, {
      accounts: async (claims) => {
        if (failing) throw new Error('read model unavailable');
        return claims.userId === late ? { error: ACCOUNT_NOT_YET } : { user: { id: claims.userId } };
      },
    });
    const client = await connect();
    client.send({ type: 'auth', token: tokens.issue(late) });
    await waitUntil(() => client.of('AUTH_ERROR').length === 1, { message: 'AUTH_ERROR when the account cannot be read' });
    expect(client.of('AUTH_ERROR')[0]!.data).to.deep.equal({ message: 'The account cannot be checked right now; please retry in a moment; this connection receives public messages only.' });
    failing = false;
    client.send({ type: 'auth', token: tokens.issue(late) });
    await waitUntil(() => client.of('AUTH_ERROR').length === 2, { message: 'AUTH_ERROR for an account not readable yet' });
    expect(client.of('AUTH_ERROR')[1]!.data).to.deep.equal({ message: `${ACCOUNT_NOT_YET}; this connection receives public messages only.` });
    const known = randomUUID();
    client.send({ type: 'auth', token: tokens.issue(known) });
    await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
    expect(client.of('AUTHENTICATED')[0]!.data).to.deep.equal({ userId: known });
  });

  it('terminates a socket that does not answer pings', async function () {
    await start({ heartbeatIntervalMs: 100 });
    const answering = await connect();
    raw.push(await openNonReadingSocket(port));
    await waitUntil(() => relay.stats().sockets === 2, { message: 'two sockets' });
    await waitUntil(() => relay.stats().terminatedNoPong === 1 && relay.stats().sockets === 1, { message: 'the silent socket terminated' });
    expect(answering.ws.readyState).to.equal(answering.ws.OPEN);
  });

  it('bounds what it holds for a client that does not read: market updates are dropped, then pushes close it (4008)', async function () {
    this.timeout(30_000);
    const dropAbove = 64 * 1024;
    const closeAbove = 256 * 1024;
    await start({ marketUpdateIntervalMs: 0, heartbeatIntervalMs: 600_000, dropMarketAboveBytes: dropAbove, closeAboveBytes: closeAbove });
    const reader = await connect();
    const stalled = await openNonReadingSocket(port);
    raw.push(stalled);
    await waitUntil(() => relay.stats().sockets === 2, { message: 'two sockets' });

    // Ticks until the kernel's buffers are full and the relay starts dropping for the stalled socket.
    let sent = 0;
    await waitUntil(
      async () => {
        for (let i = 0; i < 500; i++) await bus.publish(marketTickSubject('bitcoin'), tick(++sent));
        return relay.stats().droppedMarketUpdates > 1000;
      },
      { timeoutMs: 25_000, intervalMs: 0, message: 'market updates dropped for the stalled socket' },
    );
    const stats = relay.stats();
    // One frame (about 150 bytes) may go out above the limit, never more.
    expect(stats.maxBufferedBytes).to.be.above(dropAbove).and.below(dropAbove + 1024);
    expect(stats.sockets, 'market updates alone do not close it').to.equal(2);
    await waitUntil(() => reader.of('MARKET_UPDATE').some((m) => (m.data as MarketTick).price === sent), { message: 'the reading client gets every tick' });

    // Pushes are never dropped silently: past the close limit the stalled socket is closed.
    const big = { blob: 'x'.repeat(32 * 1024) };
    await waitUntil(
      async () => {
        await bus.publish(publicRealtimeSubject('BIG'), big);
        return relay.stats().closedTooSlow === 1;
      },
      { timeoutMs: 10_000, intervalMs: 0, message: 'the stalled socket closed' },
    );
    expect(relay.stats().maxBufferedBytes).to.be.below(closeAbove + 64 * 1024);
    // The close frame is queued behind what the stalled client never read: read it all now, within
    // the second the relay allows before it destroys the connection.
    stalled.resume();
    const tail = await new Promise<Buffer>((resolve) => {
      const chunks: Buffer[] = [];
      stalled.on('data', (c: Buffer) => chunks.push(c));
      stalled.on('close', () => resolve(Buffer.concat(chunks)));
    });
    // The last frame: 0x88 (FIN, close), unmasked length, the code, the reason.
    const reason = Buffer.from('too slow: messages are not being read');
    const code = Buffer.alloc(2);
    code.writeUInt16BE(CLOSE_TOO_SLOW);
    const closeFrame = Buffer.concat([Buffer.from([0x88, reason.length + 2]), code, reason]);
    expect(tail.subarray(-closeFrame.length).toString('hex'), 'ends with a 4008 close frame').to.equal(closeFrame.toString('hex'));
    await waitUntil(() => relay.stats().sockets === 1, { message: 'the stalled socket forgotten' });
    expect(reader.ws.readyState, 'the reading client is not affected').to.equal(reader.ws.OPEN);
  });
});
