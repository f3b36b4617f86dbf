/** The guards on a tiny Koa app over a real read model (PGlite). */
import { expect } from 'chai';
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { USERS_PROJECTION, type UserView } from '@papertrade/domain/auth/user-view';
import { SqlDocumentStore } from '../document-store/sql-document-store';
import { PgliteClient } from '../sql/sql-client';
import { ReadModels, generationCollection } from '../projections/read-models';
import { problemMiddleware } from '../http/problem-middleware';
import { silentLogger } from '../config/logger';
import { TokenService } from './tokens';
import { authenticate, requireAdmin, requirePremium, requireUser } from './guards';
import { freshPglite } from '../../../test/pglite';

// Tokens carry UUID subjects only (tokens.ts), so the fixtures' ids are UUIDs named for readability.
const U = {
  free: '00000000-0000-4000-8000-000000000001',
  premium: '00000000-0000-4000-8000-000000000002',
  lapsed: '00000000-0000-4000-8000-000000000003',
  admin: '00000000-0000-4000-8000-000000000004',
};

const base: UserView = {
  id: U.free,
  email: 'f@example.com',
  username: 'free',
  firstName: null,
  lastName: null,
  subscriptionTier: 'FREE',
  subscriptionStatus: 'ACTIVE',
  isAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  emailNormalised: 'f@example.com',
  usernameNormalised: 'free',
  createdMonth: '2026-01',
  premium: false,
};

describe('guards (logged in, premium, admin)', function () {
  let server: Server;
  let url: string;
  let cleanup: () => Promise<void>;
  const tokens = new TokenService('guard-secret-guard-secret-guard-secret');
  before(async function () {
    const pglite = await freshPglite();
    cleanup = pglite.cleanup;
    const documents = await SqlDocumentStore.create(new PgliteClient(pglite.db));
    const users = documents.collection<UserView>(generationCollection(USERS_PROJECTION, 1));
    await users.put(U.free, base);
    await users.put(U.premium, { ...base, id: U.premium, subscriptionTier: 'PREMIUM', premium: true });
    await users.put(U.lapsed, { ...base, id: U.lapsed, subscriptionTier: 'PREMIUM', subscriptionStatus: 'EXPIRED' });
    await users.put(U.admin, { ...base, id: U.admin, isAdmin: true });
    const router = new Router();
    router.get('/user', requireUser, (ctx) => void (ctx.body = { ok: true }));
    router.get('/premium', requirePremium, (ctx) => void (ctx.body = { ok: true }));
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

  const call = async (path: string, user?: string) => {
    const res = await fetch(url + path, user ? { headers: { authorization: `Bearer ${tokens.issue(user)}` } } : {});
    return { status: res.status, body: (await res.json()) as { detail?: string } };
  };

  it('answers 401 to a visitor everywhere', async function () {
    for (const p of ['/user', '/premium', '/admin']) expect((await call(p)).status).to.equal(401);
  });

  it('lets premium through only for PREMIUM + ACTIVE, with the spec text otherwise', async function () {
    expect((await call('/premium', U.premium)).status).to.equal(200);
    for (const user of [U.free, U.lapsed, U.admin]) {
      const res = await call('/premium', user);
      expect(res.status).to.equal(403);
      expect(res.body.detail).to.contain('Premium subscription required');
    }
  });

  it('lets only admins through the admin guard', async function () {
    expect((await call('/admin', U.admin)).status).to.equal(200);
    expect((await call('/admin', U.premium)).status).to.equal(403);
    expect((await call('/user', U.free)).status).to.equal(200);
  });
});
