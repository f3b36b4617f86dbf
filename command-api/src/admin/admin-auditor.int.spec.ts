/**
 * The auditor role and the read-only admin endpoints through HTTP: who may call what (admin,
 * auditor, free user, visitor), bad input appending nothing, the server-side search and pages, and
 * the stats counters exact after sign-ups and upgrades (each harness starts with an empty store).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from '../../../test/api-harness';

const unique = () => randomUUID().slice(0, 8);

describe('admin API: auditor role, search and counters (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  let admin: { id: string; token: string };
  let auditor: { userId: string; token: string };
  let free: { userId: string; token: string };

  async function account(prefix: string, names: { firstName?: string; lastName?: string } = {}) {
    const t = unique();
    const email = `${prefix}.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `${prefix}_${t}`, ...names });
    return { userId, email, username: `${prefix}_${t}`, token: await h.login(email, 'secret1') };
  }

  before(async function () {
    h = await startHarness();
    admin = await h.admin();
    auditor = await account('aud');
    free = await account('free');
    const grant = await h.request('PUT', `/api/admin/users/${auditor.userId}/auditor`, { token: admin.token, body: { auditor: true } });
    expect(grant.status).to.equal(200);
    await h.projector.caughtUp();
  });
  after(async function () {
    await h?.stop();
  });

  describe('permissions', function () {
    const target = () => free.userId;
    const endpoints: Array<{ method: string; name: string; path: () => string; body?: unknown; auditorMay: boolean }> = [
      { method: 'GET', name: '/api/admin/users', path: () => '/api/admin/users', auditorMay: true },
      { method: 'GET', name: '/api/admin/stats', path: () => '/api/admin/stats', auditorMay: true },
      { method: 'PUT', name: '/api/admin/users/{id}', path: () => `/api/admin/users/${target()}`, body: { firstName: 'X' }, auditorMay: false },
      { method: 'PUT', name: '/api/admin/users/{id}/auditor', path: () => `/api/admin/users/${target()}/auditor`, body: { auditor: true }, auditorMay: false },
    ];
    for (const e of endpoints) {
      it(`${e.method} ${e.name}: visitor 401, free 403, auditor ${e.auditorMay ? '200' : '403'}, nothing appended`, async function () {
        const body = e.body ? { body: e.body } : {};
        const events = await h.appendedBy(async () => {
          expect((await h.request(e.method, e.path(), body)).status).to.equal(401);
          const byFree = await h.request(e.method, e.path(), { token: free.token, ...body });
          expect(byFree.status).to.equal(403);
          const byAuditor = await h.request(e.method, e.path(), { token: auditor.token, ...body });
          expect(byAuditor.status).to.equal(e.auditorMay ? 200 : 403);
          if (!e.auditorMay) expect(byAuditor.body.detail).to.equal('Administrator access required');
        });
        expect(events).to.deep.equal([]);
      });
    }

    it('an admin may read both lists', async function () {
      expect((await h.request('GET', '/api/admin/users', { token: admin.token })).status).to.equal(200);
      expect((await h.request('GET', '/api/admin/stats', { token: admin.token })).status).to.equal(200);
    });

    it('free users are told the read-only endpoints need an administrator or auditor', async function () {
      const res = await h.request('GET', '/api/admin/users', { token: free.token });
      expect(res.body.detail).to.equal('Administrator or auditor access required');
    });
  });

  describe('granting and revoking the auditor role', function () {
    it('grants on user-{id} (once), shows in me and the list, and revokes; the role opens and closes the list', async function () {
      const someone = await account('role');
      expect((await h.request('GET', '/api/admin/users', { token: someone.token })).status).to.equal(403);
      let res!: Awaited<ReturnType<Harness['request']>>;
      const granted = await h.appendedBy(async () => {
        res = await h.request('PUT', `/api/admin/users/${someone.userId}/auditor`, { token: admin.token, body: { auditor: true } });
      });
      expect(res.status).to.equal(200);
      expect(granted.map((e) => [e.type, e.streamId])).to.deep.equal([['AuditorRoleGranted', `user-${someone.userId}`]]);
      expect(granted[0]!.data).to.include({ userId: someone.userId, grantedBy: admin.id });
      expect(res.body).to.deep.equal({ id: someone.userId, isAuditor: true, position: granted[0]!.position });
      const headers = { 'x-min-position': res.body.position };
      expect((await h.request('GET', '/api/auth/me', { token: someone.token, headers })).body.isAuditor).to.equal(true);
      expect((await h.request('GET', '/api/admin/users', { token: someone.token, headers })).status).to.equal(200);

      const again = await h.appendedBy(() => h.request('PUT', `/api/admin/users/${someone.userId}/auditor`, { token: admin.token, body: { auditor: true } }));
      expect(again).to.deep.equal([]);

      const revoke = await h.request('PUT', `/api/admin/users/${someone.userId}/auditor`, { token: admin.token, body: { auditor: false } });
      expect(revoke.status).to.equal(200);
      const after = { 'x-min-position': revoke.body.position };
      expect((await h.request('GET', '/api/admin/users', { token: someone.token, headers: after })).status).to.equal(403);
      const listed = await h.request('GET', `/api/admin/users?q=${encodeURIComponent(someone.email)}`, { token: admin.token, headers: after });
      expect(listed.body).to.have.length(1);
      expect(listed.body[0]).to.include({ id: someone.userId, isAuditor: false });
    });

    const bad: Array<[string, string, unknown, number, RegExp]> = [
      ['no body', 'valid', undefined, 400, /JSON request body is required/],
      ['a string flag', 'valid', { auditor: 'yes' }, 400, /auditor/],
      ['an unknown field', 'valid', { auditor: true, isAdmin: true }, 400, /unknown field: isAdmin/],
      ['an unknown user', 'unknown', { auditor: true }, 404, /User not found/],
      ['a malformed id', 'malformed', { auditor: true }, 404, /User not found/],
    ];
    for (const [what, id, body, status, detail] of bad) {
      it(`answers ${status} to ${what}, appending nothing`, async function () {
        const path = `/api/admin/users/${id === 'valid' ? free.userId : id === 'unknown' ? randomUUID() : 'nope'}/auditor`;
        let res!: Awaited<ReturnType<Harness['request']>>;
        const events = await h.appendedBy(async () => {
          res = await h.request('PUT', path, { token: admin.token, ...(body === undefined ? {} : { body }) });
        });
        expect(res.status).to.equal(status);
        expect(res.body.detail).to.match(detail);
        expect(events).to.deep.equal([]);
      });
    }
  });

  describe('search and pages', function () {
    let people: Array<{ userId: string; email: string; username: string }>;
    const tag = unique().replace(/[^a-z]/g, 'q');

    before(async function () {
      people = [];
      for (const [first, last] of [['Zelda', `Quux${tag}`], ['Zeno', `Quux${tag}`], ['Yan', `Other${tag}`]] as const) {
        people.push(await account(`s${tag}`, { firstName: first, lastName: last }));
      }
      await h.projector.caughtUp();
    });

    const list = (query: string, token = admin.token) => h.request('GET', `/api/admin/users?${query}`, { token });

    it('matches a prefix of the email, username, full name or last name, case-insensitively, newest first', async function () {
      const byLast = await list(`q=${encodeURIComponent(`QUUX${tag}`)}`);
      expect(byLast.status).to.equal(200);
      expect(byLast.body.map((u: { id: string }) => u.id)).to.deep.equal([people[1]!.userId, people[0]!.userId]);
      expect(byLast.headers.get('x-total-count')).to.equal('2');
      const byFull = await list(`q=${encodeURIComponent(`  zelda   quux${tag} `)}`);
      expect(byFull.body.map((u: { id: string }) => u.id)).to.deep.equal([people[0]!.userId]);
      const byEmail = await list(`q=${encodeURIComponent(people[2]!.email.toUpperCase())}`);
      expect(byEmail.body.map((u: { id: string }) => u.id)).to.deep.equal([people[2]!.userId]);
      const byUsername = await list(`q=${encodeURIComponent(`s${tag}_`)}`);
      expect(byUsername.headers.get('x-total-count')).to.equal('3');
      // a middle part is not a prefix
      expect((await list(`q=${encodeURIComponent(`uux${tag}`)}`)).body).to.deep.equal([]);
      expect((await list('q=%25')).body).to.deep.equal([]);
    });

    it('pages with page and pageSize, the total in X-Total-Count', async function () {
      const q = `q=${encodeURIComponent(`s${tag}_`)}`;
      const first = await list(`${q}&pageSize=2&page=1`);
      const second = await list(`${q}&pageSize=2&page=2`);
      const third = await list(`${q}&pageSize=2&page=3`);
      expect(first.body.map((u: { id: string }) => u.id)).to.deep.equal([people[2]!.userId, people[1]!.userId]);
      expect(second.body.map((u: { id: string }) => u.id)).to.deep.equal([people[0]!.userId]);
      expect(third.body).to.deep.equal([]);
      expect(third.headers.get('x-total-count')).to.equal('3');
    });

    it('filters by tier and status, and an auditor searches too', async function () {
      const up = await h.request('PUT', `/api/admin/users/${people[1]!.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM' } });
      const headers = { 'x-min-position': up.body.position };
      const premium = await h.request('GET', `/api/admin/users?q=s${tag}_&tier=PREMIUM`, { token: auditor.token, headers });
      expect(premium.status).to.equal(200);
      expect(premium.body.map((u: { id: string }) => u.id)).to.deep.equal([people[1]!.userId]);
      expect((await list(`q=s${tag}_&tier=FREE&status=ACTIVE`)).headers.get('x-total-count')).to.equal('2');
      expect((await list(`q=s${tag}_&status=EXPIRED`)).body).to.deep.equal([]);
    });

    for (const [query, field] of [
      ['page=0', /page/],
      ['pageSize=101', /pageSize/],
      ['pageSize=abc', /pageSize/],
      ['tier=GOLD', /tier/],
      ['status=PAUSED', /status/],
      ['q=a&q=b', /q/],
      [`q=${'x'.repeat(101)}`, /q/],
      ['limit=5', /limit/],
    ] as const) {
      it(`answers 400 naming the field for ${query.slice(0, 20)}`, async function () {
        const res = await list(query);
        expect(res.status).to.equal(400);
        expect(res.body.detail).to.match(field);
      });
    }
  });

  describe('stats counters', function () {
    it('are exact after sign-ups, upgrades and downgrades, and readable by the auditor', async function () {
      // This harness's store: the admin, the auditor, the free user, the role and search users so far.
      const before = await h.request('GET', '/api/admin/stats', { token: auditor.token });
      const total = Number((await h.request('GET', '/api/admin/users?pageSize=1', { token: admin.token })).headers.get('x-total-count'));
      expect(before.body.totalUsers).to.equal(total);
      const a = await account('cnt');
      const b = await account('cnt');
      const upA = await h.request('PUT', `/api/admin/users/${a.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      const upB = await h.request('PUT', `/api/admin/users/${b.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'CANCELLED' } });
      const mid = await h.request('GET', '/api/admin/stats', { token: admin.token, headers: { 'x-min-position': upB.body.position } });
      expect(upA.status).to.equal(200);
      expect(mid.body).to.deep.equal({
        totalUsers: before.body.totalUsers + 2,
        premiumUsers: before.body.premiumUsers + 1,
        activeSubscriptions: before.body.activeSubscriptions + 1,
        newThisMonth: before.body.newThisMonth + 2,
      });
      const down = await h.request('PUT', `/api/admin/users/${a.userId}`, { token: admin.token, body: { subscriptionStatus: 'EXPIRED' } });
      const after = await h.request('GET', '/api/admin/stats', { token: admin.token, headers: { 'x-min-position': down.body.position } });
      expect(after.body).to.include({ premiumUsers: before.body.premiumUsers, activeSubscriptions: before.body.activeSubscriptions });
      // The counters agree with the users read model, counted the slow way.
      const premium = Number((await h.request('GET', '/api/admin/users?tier=PREMIUM&status=ACTIVE&pageSize=1', { token: admin.token })).headers.get('x-total-count'));
      const active = Number((await h.request('GET', '/api/admin/users?status=ACTIVE&pageSize=1', { token: admin.token })).headers.get('x-total-count'));
      expect([after.body.premiumUsers, after.body.activeSubscriptions]).to.deep.equal([premium, active]);
    });
  });
});
