/**
 * X-Min-Position cannot be turned against the service (HTTP, PGlite): a position beyond the event
 * store's head is refused with 400 before anything waits, in the embedded app and in query-api and
 * command-api as the cluster runs them; past the cap of waiting requests, a request serves what there
 * is at once with `X-Position-Reached: false`.
 */
import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { encodePosition, type Position } from '@papertrade/platform/event-store/position';
import { readsFrom } from '@papertrade/platform/http/min-position';
import { problemMiddleware } from '@papertrade/platform/http/problem-middleware';
import { silentLogger } from '@papertrade/platform/config/logger';
import { CHECKPOINT_COLLECTION, ReadModels, changeSubject, checkpointId } from '@papertrade/platform/projections/read-models';
import { createCommandApi } from '@papertrade/command-api/app';
import { startHarness, type Harness } from '../../test/api-harness';
import { commandApiDeps, queryApiDeps } from '../../bin/compose';
import { createQueryApi } from './app';
import { waitUntil } from '../../test/wait';

const FAR = encodePosition(10n ** 19n, 0);
const BEYOND = /^X-Min-Position: \d{20}-\d{20} is beyond the last event written \(\d{20}-\d{20}\); send a position returned by a command$/;

async function serve(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('X-Min-Position: refused beyond the head, capped waits (HTTP)', function () {
  this.timeout(60_000);
  let h: Harness;
  let email: string;
  let token: string;
  let position: Position;
  let waits = 0;

  before(async function () {
    h = await startHarness();
    const id = randomUUID().slice(0, 8);
    email = `minpos.${id}@example.com`;
    position = (await h.signup({ email, username: `minpos_${id}` })).position as Position;
    token = await h.login(email, 'secret1');
    // Every wait of the app's read models is counted: a refused request must not have waited.
    const readModels = h.rt.infra.readModels;
    const waitFor = readModels.waitFor.bind(readModels);
    readModels.waitFor = (...args) => {
      waits += 1;
      return waitFor(...args);
    };
  });
  after(async function () {
    await h?.stop();
  });

  it('embedded: a position at the head waits and is reached', async function () {
    const res = await h.request('GET', '/api/auth/me', { token, headers: { 'x-min-position': position } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-position-reached')).to.equal('true');
  });

  it('embedded: a position beyond the head answers 400 with a clear message, without waiting', async function () {
    const before = waits;
    for (const [method, path, options] of [
      ['GET', '/api/auth/me', { token }],
      ['GET', '/api/public/stats', {}],
      ['POST', '/api/auth/login', { body: { email, password: 'secret1' } }],
    ] as const) {
      const res = await h.request(method, path, { ...options, headers: { 'x-min-position': FAR } });
      expect(res.status, `${method} ${path}`).to.equal(400);
      expect(res.body.detail, `${method} ${path}`).to.match(BEYOND);
      expect(res.headers.get('x-position-reached'), `${method} ${path}`).to.equal(null);
    }
    expect(waits).to.equal(before);
  });

  it('embedded: a malformed position still answers 400', async function () {
    const res = await h.request('GET', '/api/public/stats', { headers: { 'x-min-position': 'latest' } });
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.equal('X-Min-Position: must be a position returned by a command');
  });

  it('query-api and command-api on their own refuse it too', async function () {
    const query = await serve(createQueryApi(queryApiDeps(h.rt)));
    const command = await serve(createCommandApi(commandApiDeps(h.rt)));
    try {
      const before = waits;
      const me = await fetch(`${query.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}`, 'x-min-position': FAR } });
      expect(me.status).to.equal(400);
      expect(((await me.json()) as { detail: string }).detail).to.match(BEYOND);
      const login = await fetch(`${command.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-min-position': FAR },
        body: JSON.stringify({ email, password: 'secret1' }),
      });
      expect(login.status).to.equal(400);
      expect(((await login.json()) as { detail: string }).detail).to.match(BEYOND);
      expect(waits).to.equal(before);
    } finally {
      await query.close();
      await command.close();
    }
  });

  it('past the cap of waiting requests, a request answers at once with X-Position-Reached: false', async function () {
    const { documents, bus } = h.rt.infra;
    const projection = `capped_${randomUUID().slice(0, 8)}`;
    const checkpoints = documents.collection(CHECKPOINT_COLLECTION);
    await checkpoints.put(checkpointId(projection, 1), { position: encodePosition(1, 1) });
    const readModels = new ReadModels(documents, bus, { maxWaiters: 2 });
    await readModels.listen();
    const router = new Router();
    router.get('/read', readsFrom(readModels, projection), (ctx) => void (ctx.body = { ok: true }));
    const app = new Koa();
    app.use(problemMiddleware(silentLogger));
    app.use(router.routes());
    const server = await serve(app);
    try {
      const get = () => fetch(`${server.url}/read`, { headers: { 'x-min-position': encodePosition(1, 2) } });
      // waitFor registers its waiter before it returns: counting the calls tells when both are parked.
      let entered = 0;
      const waitFor = readModels.waitFor.bind(readModels);
      readModels.waitFor = (...args) => {
        entered += 1;
        return waitFor(...args);
      };
      let answered = 0;
      const waiting = [get(), get()].map((p) => p.finally(() => (answered += 1)));
      await waitUntil(() => entered === 2, { message: 'two requests waiting' });
      const third = await get();
      expect(third.status).to.equal(200);
      expect(third.headers.get('x-position-reached')).to.equal('false');
      expect(answered).to.equal(0);
      await checkpoints.put(checkpointId(projection, 1), { position: encodePosition(1, 2) });
      await bus.publish(changeSubject(projection), {});
      for (const res of await Promise.all(waiting)) {
        expect(res.status).to.equal(200);
        expect(res.headers.get('x-position-reached')).to.equal('true');
      }
    } finally {
      await server.close();
    }
  });
});
