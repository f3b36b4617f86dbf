/**
 * The embedded app (bin/start.ts as its own process) serves the real-time socket on /ws of its one
 * port: its own market feed's ticks reach a WebSocket client over the in-process bus, and a token
 * the app issued authenticates the socket.
 */
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { MarketTick } from '@papertrade/domain/market/contracts';
import { RecordingClient } from '@papertrade/query-api/realtime/relay-test-client';
import { TokenService } from '@papertrade/platform/auth/tokens';
import { startApp, type StartedApp } from '../test/app-process';
import { sendJson } from '../test/cluster-support';
import { waitUntil } from '../test/wait';

const JWT_SECRET = 'realtime-spec-secret-realtime-spec-secret';

describe('embedded app: real-time socket on /ws', function () {
  this.timeout(90_000);
  let app: StartedApp | undefined;
  const clients: RecordingClient[] = [];

  before(async function () {
    app = await startApp({ env: { MARKET_TICK_MS: '200', WEB_DIST: path.join(os.tmpdir(), 'papertrade-no-web'), JWT_SECRET } });
  });

  after(async function () {
    for (const c of clients.splice(0)) c.close();
    await app?.stop();
  });

  it("pushes the market feed's ticks and accepts the app's own tokens", async function () {
    const id = randomUUID().slice(0, 8);
    const signup = await sendJson('POST', `${app!.url}/api/auth/signup`, { email: `ws.${id}@example.com`, username: `ws_${id}`, password: 'secret1', confirmPassword: 'secret1' });
    expect(signup.status, JSON.stringify(signup.body)).to.equal(201);
    const login = await sendJson('POST', `${app!.url}/api/auth/login`, { email: `ws.${id}@example.com`, password: 'secret1' });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);

    const client = await RecordingClient.open(`${app!.url.replace('http', 'ws')}/ws`, ['papertrade', `bearer.${String(login.body.token)}`]);
    clients.push(client);
    await waitUntil(() => client.of('AUTHENTICATED').length === 1, { message: 'AUTHENTICATED' });
    const update = await waitUntil(() => client.of('MARKET_UPDATE')[0], { message: 'a MARKET_UPDATE from the feed', timeoutMs: 20_000 });
    expect((update.data as MarketTick).price).to.be.greaterThan(0);
  });

  it('refuses a token signed with its secret for an account it does not have (AUTH_ERROR, as the APIs answer 401)', async function () {
    const token = new TokenService(JWT_SECRET).issue(randomUUID());
    const me = await sendJson('GET', `${app!.url}/api/auth/me`, undefined, { authorization: `Bearer ${token}` });
    expect(me.status).to.equal(401);
    const client = await RecordingClient.open(`${app!.url.replace('http', 'ws')}/ws`, ['papertrade', `bearer.${token}`]);
    clients.push(client);
    const error = await waitUntil(() => client.of('AUTH_ERROR')[0], { message: 'AUTH_ERROR' });
    expect(error.data).to.deep.equal({ message: `${String(me.body.detail)}; this connection receives public messages only.` });
    expect(client.of('AUTHENTICATED')).to.deep.equal([]);
  });
});
