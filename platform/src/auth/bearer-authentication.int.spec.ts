/**
 * How a request's bearer token becomes a user (or a readable 401) before the guards run, on a tiny
 * Koa app over a real users read model (PGlite).
 */
import { expect } from 'chai';
import type { UserView } from '@papertrade/domain/auth/user-view';
import { encodePosition } from '../event-store/position';
import { TokenService } from './tokens';
import { currentUser, requireAdmin } from './guards';
import { startAuthApp, userView, type AuthApp } from '../../../test/auth-app';

const ann = userView('aaaaaaaa-1111-4111-8111-111111111111', 'ann', { firstName: 'Ann' });

const INVALID = 'The sign-in token is invalid or has expired; please sign in again';
const GONE = 'The account for this token no longer exists';
const MISSING = 'Authentication required: send a bearer token';

describe('bearer authentication', function () {
  let app: AuthApp;
  const tokens = new TokenService('bearer-secret-bearer-secret-bearer-secret');
  const checkpoint = encodePosition(5, 5);

  before(async function () {
    app = await startAuthApp({
      tokens,
      users: [ann],
      checkpoint,
      routes: (router) => {
        router.get('/me', (ctx) => void (ctx.body = { id: currentUser(ctx).id, email: currentUser(ctx).email }));
        router.get('/public', (ctx) => void (ctx.body = { user: (ctx.state as { user?: UserView }).user?.id ?? null }));
        router.get('/admin', requireAdmin, (ctx) => void (ctx.body = { ok: true }));
      },
    });
  });
  after(async function () {
    await app?.stop();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(app.url + path, { headers });
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
