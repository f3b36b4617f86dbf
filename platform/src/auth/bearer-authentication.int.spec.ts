/**
 * How a request's bearer token becomes a user (or a readable 401) before the guards run, on a tiny
 * Koa app over a real users read model (PGlite).
 */
import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import { SqlDocumentStore } from '../document-store/sql-document-store';
import { PgliteClient } from '../sql/sql-client';
import { CHECKPOINT_COLLECTION, ReadModels, checkpointId, generationCollection } from '../projections/read-models';
import { encodePosition } from '../event-store/position';
import { problemMiddleware } from '../http/problem-middleware';
import { silentLogger } from '../config/logger';
import { TokenService } from './tokens';
import { authenticate, currentUser, requireAdmin } from './guards';
import { freshPglite } from '../../../test/pglite';

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
  let server: Server;
  let url: string;
  let cleanup: () => Promise<void>;
  const tokens = new TokenService('bearer-secret-bearer-secret-bearer-secret');
  const checkpoint = encodePosition(5, 5);

  before(async function () {
    const pglite = await freshPglite();
    cleanup = pglite.cleanup;
    const documents = await SqlDocumentStore.create(new PgliteClient(pglite.db));
    await documents.collection<UserView>(generationCollection(USERS_PROJECTION, 1)).put(ann.id, ann);
    await documents.collection(CHECKPOINT_COLLECTION).put(checkpointId(USERS_PROJECTION, 1), { position: checkpoint });
    const router = new Router();
    router.get('/me', (ctx) => void (ctx.body = { id: currentUser(ctx).id, email: currentUser(ctx).email }));
    router.get('/public', (ctx) => void (ctx.body = { user: (ctx.state as { user?: UserView }).user?.id ?? null }));
    router.get('/admin', requireAdmin, (ctx) => void (ctx.body = { ok: true }));
    const app = new Koa();
    app.use(problemMiddleware(silentLogger));
    app.use(authenticate(tokens, new ReadModels(documents)));
    app.use(router.routes());
    await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', resolve)));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async function () {
    server?.close();
    await cleanup?.();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, { headers });
    return { status: res.status, body: (await res.json()) as { detail?: string; id?: string; user?: string | null }, headers: res.headers };
  };

  it('resolves the user of a valid token, whatever the case of the scheme and the spacing', async function () {
    const token = tokens.issue(ann.id);
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}`]) {
      const res = await get('/me', { authorization });
      expect(res.status, authorization).to.equal(200);
      expect(res.body).to.deep.equal({ id: ann.id, email: ann.email });
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
});
