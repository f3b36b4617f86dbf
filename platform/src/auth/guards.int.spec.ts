/** The guards on a tiny Koa app over a real read model (PGlite). */
import { expect } from 'chai';
import { TokenService } from './tokens';
import { requireAdmin, requirePremium, requireUser } from './guards';
import { startAuthApp, userView, type AuthApp } from '../../../test/auth-app';

// Tokens carry UUID subjects only (tokens.ts), so the fixtures' ids are UUIDs named for readability.
const U = {
  free: '00000000-0000-4000-8000-000000000001',
  premium: '00000000-0000-4000-8000-000000000002',
  lapsed: '00000000-0000-4000-8000-000000000003',
  admin: '00000000-0000-4000-8000-000000000004',
};

describe('guards (logged in, premium, admin)', function () {
  let app: AuthApp;
  const tokens = new TokenService('guard-secret-guard-secret-guard-secret');
  before(async function () {
    app = await startAuthApp({
      tokens,
      users: [
        userView(U.free, 'free'),
        userView(U.premium, 'premium', { subscriptionTier: 'PREMIUM', premium: true }),
        userView(U.lapsed, 'lapsed', { subscriptionTier: 'PREMIUM', subscriptionStatus: 'EXPIRED' }),
        userView(U.admin, 'admin', { isAdmin: true }),
      ],
      routes: (router) => {
        router.get('/user', requireUser, (ctx) => void (ctx.body = { ok: true }));
        router.get('/premium', requirePremium, (ctx) => void (ctx.body = { ok: true }));
        router.get('/admin', requireAdmin, (ctx) => void (ctx.body = { ok: true }));
      },
    });
  });
  after(async function () {
    await app?.stop();
  });

  const call = async (path: string, user?: string) => {
    const res = await fetch(app.url + path, user ? { headers: { authorization: `Bearer ${tokens.issue(user)}` } } : {});
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
