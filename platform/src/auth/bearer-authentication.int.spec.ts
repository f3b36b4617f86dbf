/**
 * How a request's bearer token becomes a user (or a readable 401 or 503) before the guards run, on a
 * tiny Koa app over a real users read model (PGlite) and an in-process bus for change notices: the
 * identity cache, X-Min-Position past it, and a token whose account the read model does not hold yet.
 */
import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import { SqlDocumentStore } from '../document-store/sql-document-store';
import type { Collection } from '../document-store/document-store';
import { PgliteClient } from '../sql/sql-client';
import { MemoryBus } from '../bus/memory-bus';
import { CHECKPOINT_COLLECTION, META_COLLECTION, ReadModels, changeSubject, checkpointId, generationCollection, type Checkpoint } from '../projections/read-models';
import { encodePosition, type Position } from '../event-store/position';
import { problemMiddleware } from '../http/problem-middleware';
import { silentLogger } from '../config/logger';
import { TokenService } from './tokens';
import { ACCOUNT_NOT_YET, ACCOUNT_WAIT_MS, authenticate, currentUser, requireAdmin } from './guards';
import { IdentityCache } from './identity-cache';
import { freshPglite } from '../../../test/pglite';
import { waitUntil } from '../../../test/wait';

/** Counts the waits for a token's position (the waiting itself is ReadModels'). */
class CountingReadModels extends ReadModels {
  waits = 0;
  override waitFor(projections: string[], position: Position, timeoutMs?: number): Promise<boolean> {
    this.waits++;
    return super.waitFor(projections, position, timeoutMs);
  }
}

const ann: UserView = {
  id: 'aaaaaaaa-1111-4111-8111-111111111111',
  email: 'ann@example.com',
  username: 'ann',
  firstName: 'Ann',
  lastName: null,
  subscriptionTier: 'FREE',
  subscriptionStatus: 'ACTIVE',
  isAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  emailNormalised: 'ann@example.com',
  usernameNormalised: 'ann',
  createdMonth: '2026-01',
  premium: false,
};

const INVALID = 'The sign-in token is invalid or has expired; please sign in again';
const GONE = 'The account for this token no longer exists';
const MISSING = 'Authentication required: send a bearer token';

describe('bearer authentication', function () {
  let servers: Server[] = [];
  let url: string;
  /** The same app, but waiting only IMPATIENT_MS for a token's position. */
  let impatientUrl: string;
  let cleanup: () => Promise<void>;
  let documents: SqlDocumentStore;
  let users: Collection<UserView>;
  let checkpoints: Collection<Checkpoint>;
  let readModels: CountingReadModels;
  const bus = new MemoryBus();
  const tokens = new TokenService('bearer-secret-bearer-secret-bearer-secret');
  const checkpoint = encodePosition(5, 5);
  const IMPATIENT_MS = 300;
  /** The caches' clock: frozen, so entries and the generation pointer only go when a notice or X-Min-Position says so. */
  const frozen = () => 0;

  /** What the projector does: the document, then the checkpoint, then the change notice. */
  const project = async (user: UserView | null, id: string, position: Position) => {
    if (user) await users.put(id, user);
    else await users.delete(id);
    await checkpoints.put(checkpointId(USERS_PROJECTION, 1), { position });
    await bus.publish(changeSubject(USERS_PROJECTION), { position, generation: 1, ids: [id] });
  };

  before(async function () {
    const pglite = await freshPglite();
    cleanup = pglite.cleanup;
    documents = await SqlDocumentStore.create(new PgliteClient(pglite.db));
    users = documents.collection<UserView>(generationCollection(USERS_PROJECTION, 1));
    checkpoints = documents.collection<Checkpoint>(CHECKPOINT_COLLECTION);
    await users.put(ann.id, ann);
    await checkpoints.put(checkpointId(USERS_PROJECTION, 1), { position: checkpoint });
    readModels = new CountingReadModels(documents, bus, { now: frozen });
    await readModels.listen();
    const router = new Router();
    router.get('/me', (ctx) => void (ctx.body = { id: currentUser(ctx).id, email: currentUser(ctx).email, firstName: currentUser(ctx).firstName }));
    router.get('/public', (ctx) => void (ctx.body = { user: (ctx.state as { user?: UserView }).user?.id ?? null }));
    router.get('/admin', requireAdmin, (ctx) => void (ctx.body = { ok: true }));
    const listen = async (accountWaitMs: number) => {
      const identities = IdentityCache.over(readModels, { now: frozen });
      await identities.listen(bus);
      const app = new Koa();
      app.use(problemMiddleware(silentLogger));
      app.use(authenticate(tokens, readModels, { identities, accountWaitMs }));
      app.use(router.routes());
      const server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    url = await listen(ACCOUNT_WAIT_MS);
    impatientUrl = await listen(IMPATIENT_MS);
  });
  after(async function () {
    for (const server of servers) server.close();
    servers = [];
    await bus.close();
    await cleanup?.();
  });

  const get = async (path: string, headers: Record<string, string> = {}, base = url) => {
    const res = await fetch(base + path, { headers });
    return {
      status: res.status,
      body: (await res.json()) as { detail?: string; id?: string; firstName?: string | null; user?: string | null },
      headers: res.headers,
    };
  };

  it('resolves the user of a valid token, whatever the case of the scheme and the spacing', async function () {
    const token = tokens.issue(ann.id);
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}`]) {
      const res = await get('/me', { authorization });
      expect(res.status, authorization).to.equal(200);
      expect(res.body).to.deep.equal({ id: ann.id, email: ann.email, firstName: ann.firstName });
    }
  });

  it('asks for a token when none is sent', async function () {
    const res = await get('/me');
    expect(res.status).to.equal(401);
    expect(res.body.detail).to.equal(MISSING);
  });

  it('says the token is unusable for another scheme, a malformed header or a bad token', async function () {
    const token = tokens.issue(ann.id);
    const forged = new TokenService('another-secret-another-secret-another').issue(ann.id);
    for (const authorization of [`Basic ${token}`, 'Bearer', `Bearer ${token} extra`, `xBearer ${token}`, `Bearer ${forged}`, 'Bearer not-a-jwt']) {
      const res = await get('/me', { authorization });
      expect(res.status, authorization).to.equal(401);
      expect(res.body.detail, authorization).to.equal(INVALID);
    }
  });

  it('says the account is gone for a valid token of a user the read model does not hold', async function () {
    const res = await get('/me', { authorization: `Bearer ${tokens.issue('dddddddd-1111-4111-8111-111111111111')}` });
    expect(res.status).to.equal(401);
    expect(res.body.detail).to.equal(GONE);
  });

  it('never rejects by itself: routes without a guard answer, with or without a usable token', async function () {
    expect((await get('/public', { authorization: 'Bearer nonsense' })).body).to.deep.equal({ user: null });
    expect((await get('/public', { authorization: `Bearer ${tokens.issue(ann.id)}` })).body).to.deep.equal({ user: ann.id });
  });

  it('tells a signed-in non-admin that administrator access is required', async function () {
    const res = await get('/admin', { authorization: `Bearer ${tokens.issue(ann.id)}` });
    expect(res.status).to.equal(403);
    expect(res.body.detail).to.equal('Administrator access required');
  });

  it('honours X-Min-Position on the users projection before reading the user', async function () {
    const authorization = `Bearer ${tokens.issue(ann.id)}`;
    const reached = await get('/me', { authorization, 'x-min-position': checkpoint });
    expect(reached.status).to.equal(200);
    expect(reached.headers.get('x-position-reached')).to.equal('true');
    const bad = await get('/me', { authorization, 'x-min-position': 'latest' });
    expect(bad.status).to.equal(400);
    // Without a token there is nothing to read, so nothing to wait for.
    expect((await get('/public', { 'x-min-position': 'latest' })).status).to.equal(200);
  });

  it('serves who the user is from the cache until a change notice names them', async function () {
    const authorization = `Bearer ${tokens.issue(ann.id)}`;
    expect((await get('/me', { authorization })).body.firstName).to.equal('Ann');
    await users.put(ann.id, { ...ann, firstName: 'Annie' }); // changed without a notice: still cached
    expect((await get('/me', { authorization })).body.firstName).to.equal('Ann');
    await bus.publish(changeSubject(USERS_PROJECTION), { position: checkpoint, generation: 1, ids: [ann.id] });
    await waitUntil(async () => (await get('/me', { authorization })).body.firstName === 'Annie', { message: 'the notice to drop the entry' });
    await project(ann, ann.id, checkpoint);
  });

  it('reads past the cache with X-Min-Position, and keeps what it read', async function () {
    const authorization = `Bearer ${tokens.issue(ann.id)}`;
    await get('/me', { authorization });
    await users.put(ann.id, { ...ann, firstName: 'Anna' }); // no notice
    expect((await get('/me', { authorization })).body.firstName).to.equal('Ann');
    expect((await get('/me', { authorization, 'x-min-position': checkpoint })).body.firstName).to.equal('Anna');
    expect((await get('/me', { authorization })).body.firstName).to.equal('Anna');
    await project(ann, ann.id, checkpoint);
  });

  describe('a token whose account the read model does not hold yet', function () {
    const bob: UserView = { ...ann, id: 'bbbbbbbb-2222-4222-8222-222222222222', email: 'bob@example.com', username: 'bob', firstName: 'Bob' };

    it('waits for the position in the token, then answers once the projection has the account', async function () {
      const position = encodePosition(7, 1);
      const authorization = `Bearer ${tokens.issue(bob.id, { position })}`;
      const waitsBefore = readModels.waits;
      const answer = get('/me', { authorization });
      await waitUntil(() => readModels.waits > waitsBefore, { message: 'the request to wait for the position' });
      await project(bob, bob.id, position);
      const res = await answer;
      expect(res.status, res.body.detail).to.equal(200);
      expect(res.body.id).to.equal(bob.id);
    });

    it('answers 503 with Retry-After when the projection does not get there in time, and never keeps the miss', async function () {
      const carol = { ...bob, id: 'cccccccc-3333-4333-8333-333333333333', firstName: 'Carol' };
      const position = encodePosition(9, 9); // beyond the checkpoint, and nothing will project it
      const authorization = `Bearer ${tokens.issue(carol.id, { position })}`;
      const res = await get('/me', { authorization }, impatientUrl);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(res.body.detail).to.equal(ACCOUNT_NOT_YET);
      // Routes without a guard still answer, without a user.
      expect((await get('/public', { authorization }, impatientUrl)).body).to.deep.equal({ user: null });
      await project(carol, carol.id, position);
      expect((await get('/me', { authorization }, impatientUrl)).status).to.equal(200);
    });

    it('says the account is gone when the projection has passed the position without it', async function () {
      const reached = (await readModels.checkpoint(USERS_PROJECTION))!;
      const authorization = `Bearer ${tokens.issue('dddddddd-4444-4444-8444-444444444444', { position: reached })}`;
      const res = await get('/me', { authorization }, impatientUrl);
      expect(res.status).to.equal(401);
      expect(res.body.detail).to.equal(GONE);
      expect(res.headers.get('retry-after')).to.equal(null);
    });

    it('says the account is gone when it was deleted after the token was issued', async function () {
      const authorization = `Bearer ${tokens.issue(bob.id, { position: encodePosition(7, 1) })}`;
      expect((await get('/me', { authorization })).status).to.equal(200);
      await project(null, bob.id, encodePosition(10, 1));
      await waitUntil(async () => (await get('/me', { authorization })).status === 401, { message: 'the deletion to show' });
      expect((await get('/me', { authorization })).body.detail).to.equal(GONE);
    });
  });

  it('does not take an account for gone because of a generation pointer cached before a rebuild switch', async function () {
    const dave: UserView = { ...ann, id: 'eeeeeeee-5555-4555-8555-555555555555', email: 'dave@example.com', username: 'dave', firstName: 'Dave' };
    expect((await get('/me', { authorization: `Bearer ${tokens.issue(ann.id)}` })).status).to.equal(200); // the pointer (generation 1) is cached
    // A rebuild switched to generation 2 and dropped generation 1; its notice was lost.
    const next = documents.collection<UserView>(generationCollection(USERS_PROJECTION, 2));
    await next.put(ann.id, ann);
    await next.put(dave.id, dave);
    await documents.collection(META_COLLECTION).put(USERS_PROJECTION, { liveGeneration: 2 });
    await users.drop();
    try {
      const res = await get('/me', { authorization: `Bearer ${tokens.issue(dave.id)}` });
      expect(res.status, res.body.detail).to.equal(200);
      expect(res.body.id).to.equal(dave.id);
    } finally {
      await documents.collection(META_COLLECTION).delete(USERS_PROJECTION);
    }
  });
});
