/** Admin user management through HTTP: roles, validation, and which streams the changes land on. */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from '../../../test/api-harness';
import { reservationStream } from '../auth/register-account';

const unique = () => randomUUID().slice(0, 8);

describe('admin API (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  let admin: { id: string; token: string };
  let freeToken: string;
  let target: { userId: string; email: string; username: string };

  /** A user of the test's own, so that no test depends on what another one did (or whether it ran). */
  async function freshUser(): Promise<{ userId: string; email: string; username: string }> {
    const t = unique();
    const fields = { email: `t.${t}@example.com`, username: `t_${t}`, firstName: 'Tee' };
    return { ...(await h.signup(fields)), email: fields.email, username: fields.username };
  }

  before(async function () {
    h = await startHarness();
    admin = await h.admin();
    const id = unique();
    await h.signup({ email: `free.${id}@example.com`, username: `free_${id}` });
    freeToken = await h.login(`free.${id}@example.com`, 'secret1');
    target = await freshUser();
    await h.projector.caughtUp();
  });
  after(async function () {
    await h?.stop();
  });

  const appendedBy = (fn: () => Promise<unknown>) => h.appendedBy(fn);

  /** Every user, page by page (the list answers at most 100 a page). */
  async function allUsers(): Promise<Array<Record<string, string>>> {
    const all: Array<Record<string, string>> = [];
    for (let page = 1; ; page++) {
      const res = await h.request('GET', `/api/admin/users?pageSize=100&page=${page}`, { token: admin.token });
      expect(res.status).to.equal(200);
      all.push(...res.body);
      if (all.length >= Number(res.headers.get('x-total-count'))) return all;
    }
  }

  describe('roles', function () {
    for (const [method, path] of [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/stats'],
      ['PUT', `/api/admin/users/${randomUUID()}`],
    ] as const) {
      it(`${method} ${path.replace(/[0-9a-f-]{36}/, '{id}')}: 401 without a token, 403 for a non-admin, nothing appended`, async function () {
        const events = await appendedBy(async () => {
          const anonymous = await h.request(method, path, method === 'PUT' ? { body: { firstName: 'X' } } : {});
          expect(anonymous.status).to.equal(401);
          const free = await h.request(method, path, { token: freeToken, ...(method === 'PUT' ? { body: { firstName: 'X' } } : {}) });
          expect(free.status).to.equal(403);
          expect(free.body.detail).to.equal(method === 'PUT' ? 'Administrator access required' : 'Administrator or auditor access required');
        });
        expect(events).to.deep.equal([]);
      });
    }
  });

  it('lists users newest first in the me shape', async function () {
    const res = await h.request('GET', '/api/admin/users', { token: admin.token });
    expect(res.status).to.equal(200);
    expect(res.body[0]).to.have.all.keys('id', 'email', 'username', 'firstName', 'lastName', 'subscriptionTier', 'subscriptionStatus', 'isAdmin', 'isAuditor', 'createdAt');
    const created = res.body.map((u: { createdAt: string }) => u.createdAt);
    expect(created).to.deep.equal([...created].sort().reverse());
    expect(res.body.map((u: { id: string }) => u.id)).to.include(target.userId);
    const bad = await h.request('GET', '/api/admin/users?pageSize=0', { token: admin.token });
    expect(bad.status).to.equal(400);
    expect(bad.body.detail).to.match(/pageSize/);
  });

  it('edits the profile on user-{id} and tier/status on subscription-{id}; me and stats follow', async function () {
    const target = await freshUser();
    await h.projector.caughtUp();
    const before = (await h.request('GET', '/api/admin/stats', { token: admin.token })).body;
    let res!: Awaited<ReturnType<Harness['request']>>;
    const newEmail = `renamed.${unique()}@example.com`;
    const events = await appendedBy(async () => {
      res = await h.request('PUT', `/api/admin/users/${target.userId}`, {
        token: admin.token,
        body: { firstName: 'Tina', lastName: '', email: newEmail, subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' },
      });
    });
    expect(res.status).to.equal(200);
    expect(res.body.id).to.equal(target.userId);
    const byStream = events.map((e) => [e.type, e.streamId.replace(/-[0-9a-f]{64}$/, '-{hash}')]);
    expect(byStream).to.deep.equal([
      ['NameReserved', 'email-reservation-{hash}'],
      ['UserProfileUpdated', `user-${target.userId}`],
      ['ReservationReleased', 'email-reservation-{hash}'],
      ['SubscriptionChangedByAdmin', `subscription-${target.userId}`],
    ]);
    expect(events[1]!.data.changes).to.deep.equal({ firstName: 'Tina', email: newEmail });
    expect(events[1]!.metadata.userId).to.equal(admin.id);
    expect(events[3]!.data).to.include({ tier: 'PREMIUM', status: 'ACTIVE', previousTier: 'FREE', changedBy: admin.id });
    expect(res.body.position).to.equal(events[3]!.position);

    const users = await h.request('GET', '/api/admin/users', { token: admin.token, headers: { 'x-min-position': res.body.position } });
    const edited = users.body.find((u: { id: string }) => u.id === target.userId);
    expect(edited).to.include({ firstName: 'Tina', lastName: null, email: newEmail, subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' });
    const after = (await h.request('GET', '/api/admin/stats', { token: admin.token })).body;
    expect(after.premiumUsers).to.equal(before.premiumUsers + 1);
    expect(after.totalUsers).to.equal(before.totalUsers);
    // the new address signs in; the old one no longer does
    expect((await h.request('POST', '/api/auth/login', { body: { email: newEmail, password: 'secret1' } })).status).to.equal(200);
    expect((await h.request('POST', '/api/auth/login', { body: { email: target.email, password: 'secret1' } })).status).to.equal(401);
  });

  it('counts stats: premium is PREMIUM and ACTIVE together, new this month by UTC month', async function () {
    const target = await freshUser();
    const upgrade = await h.request('PUT', `/api/admin/users/${target.userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(upgrade.status).to.equal(200);
    const res = await h.request('GET', '/api/admin/stats', { token: admin.token, headers: { 'x-min-position': upgrade.body.position } });
    expect(res.status).to.equal(200);
    const users = await allUsers();
    const month = new Date().toISOString().slice(0, 7);
    expect(res.body).to.deep.equal({
      totalUsers: users.length,
      premiumUsers: users.filter((u) => u.subscriptionTier === 'PREMIUM' && u.subscriptionStatus === 'ACTIVE').length,
      activeSubscriptions: users.filter((u) => u.subscriptionStatus === 'ACTIVE').length,
      newThisMonth: users.filter((u) => u.createdAt!.startsWith(month)).length,
    });
    const cancel = await h.request('PUT', `/api/admin/users/${target.userId}`, { token: admin.token, body: { subscriptionStatus: 'CANCELLED' } });
    const later = await h.request('GET', '/api/admin/stats', { token: admin.token, headers: { 'x-min-position': cancel.body.position } });
    expect(later.body.premiumUsers).to.equal(res.body.premiumUsers - 1);
    expect(later.body.activeSubscriptions).to.equal(res.body.activeSubscriptions - 1);
  });

  it('applies a tier change to the guards at once (me reads the read model per request)', async function () {
    const id = unique();
    const { userId } = await h.signup({ email: `p.${id}@example.com`, username: `p_${id}` });
    const token = await h.login(`p.${id}@example.com`, 'secret1');
    const res = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM' } });
    const me = await h.request('GET', '/api/auth/me', { token, headers: { 'x-min-position': res.body.position } });
    expect(me.body.subscriptionTier).to.equal('PREMIUM');
  });

  const badEdits: Array<[string, unknown, number, RegExp]> = [
    ['an unknown tier', { subscriptionTier: 'GOLD' }, 400, /subscriptionTier/],
    ['an unknown status', { subscriptionStatus: 'PAUSED' }, 400, /subscriptionStatus/],
    ['a malformed email', { email: 'nope' }, 400, /email: must be a valid email address/],
    ['a bad username', { username: 'no spaces please' }, 400, /username/],
    ['an unknown field', { isAdmin: true }, 400, /unknown field: isAdmin/],
    ['a number for the first name', { firstName: 7 }, 400, /firstName/],
    ['a line separator in the first name', { firstName: '=HYPERLINK("https://evil.example")\u2028Ann' }, 400, /firstName: must not contain .*\(found U\+2028\)/],
    ['a paragraph separator in the last name', { lastName: 'Lee\u2029x' }, 400, /lastName: must not contain .*\(found U\+2029\)/],
    ['a bidi isolate in the last name', { lastName: 'Lee\u2066x' }, 400, /lastName: must not contain .*\(found U\+2066\)/],
  ];
  for (const [name, body, status, detail] of badEdits) {
    it(`refuses ${name} with ${status}, appending nothing`, async function () {
      let res!: Awaited<ReturnType<Harness['request']>>;
      const events = await appendedBy(async () => {
        res = await h.request('PUT', `/api/admin/users/${target.userId}`, { token: admin.token, body });
      });
      expect(res.status).to.equal(status);
      expect(res.body.detail).to.match(detail);
      expect(events).to.deep.equal([]);
    });
  }

  it('refuses an edit onto a username an unfinished sign-up holds (within the grace) with 409, appending nothing', async function () {
    const B = await freshUser();
    const held = `held_${unique()}`;
    const meta = { userId: 'anonymous', correlationId: randomUUID(), causationId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 };
    await h.rt.infra.eventStore.append(
      reservationStream('username', held),
      [{ id: randomUUID(), type: 'NameReserved', data: { ownerId: randomUUID(), reservedAt: new Date().toISOString() }, metadata: meta }],
      'no_stream',
    );
    const before = await h.head();
    const res = await h.request('PUT', `/api/admin/users/${B.userId}`, { token: admin.token, body: { email: `free.${unique()}@example.com`, username: held } });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.equal('Username already taken');
    expect(await h.eventsSince(before)).to.deep.equal([]);
  });

  it('answers 404 for an unknown or malformed id, and 409 for an email or username in use, appending nothing', async function () {
    const events = await appendedBy(async () => {
      const unknown = await h.request('PUT', `/api/admin/users/${randomUUID()}`, { token: admin.token, body: { firstName: 'X' } });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.detail).to.equal('User not found');
      const malformed = await h.request('PUT', '/api/admin/users/not-a-uuid', { token: admin.token, body: { firstName: 'X' } });
      expect(malformed.status).to.equal(404);
      const taken = await h.request('PUT', `/api/admin/users/${target.userId}`, { token: admin.token, body: { email: 'ROOT@example.com' } });
      expect(taken.status).to.equal(409);
      expect(taken.body.detail).to.equal('Email already registered');
    });
    expect(events).to.deep.equal([]);
  });
});
