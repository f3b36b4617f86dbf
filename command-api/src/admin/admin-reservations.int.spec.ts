/**
 * An admin edit never moves a user onto a name another registered user holds, however old the
 * reservation (past the orphan grace), on any path: a plain edit, after an admin edit made the
 * holder's reservation, and an Idempotency-Key replayed after a later edit. An edit refused for one
 * of its names appends nothing for the other, and of two edits onto one name at once one wins.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startHarness, type Harness } from '../../../test/api-harness';
import { reservationStream } from '../auth/register-account';

const GRACE_MS = 2000; // small, but a sign-up must still finish within half of it (the registration deadline)
const unique = () => randomUUID().slice(0, 8);

describe('admin edits and reservations past the orphan grace (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  let admin: { id: string; token: string };

  before(async function () {
    h = await startHarness({ RESERVATION_ORPHAN_AFTER_MS: String(GRACE_MS) });
    admin = await h.admin();
  });
  after(async function () {
    await h?.stop();
  });

  /** Waits until the reservation of this name is older than the grace (the condition a reclaim needs). */
  async function pastGrace(kind: 'email' | 'username', value: string) {
    const events = await h.rt.infra.eventStore.readStream(reservationStream(kind, value));
    const reservedAt = Date.parse(String(events[events.length - 1]!.data.reservedAt));
    while (Date.now() - reservedAt <= GRACE_MS) await new Promise((r) => setTimeout(r, 20));
  }

  const edit = (userId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body, headers });

  async function pair() {
    const [a, b] = [unique(), unique()];
    const A = { ...(await h.signup({ email: `a.${a}@example.com`, username: `a_${a}` })), email: `a.${a}@example.com`, username: `a_${a}` };
    const B = { ...(await h.signup({ email: `b.${b}@example.com`, username: `b_${b}` })), email: `b.${b}@example.com`, username: `b_${b}` };
    return { A, B };
  }

  it('refuses to move B onto A\'s email or username, appending nothing', async function () {
    const { A, B } = await pair();
    await pastGrace('email', A.email);
    await pastGrace('username', A.username);
    const events = await h.appendedBy(async () => {
      const email = await edit(B.userId, { email: A.email.toUpperCase() });
      expect(email.status).to.equal(409);
      expect(email.body.detail).to.equal('Email already registered');
      const username = await edit(B.userId, { username: A.username });
      expect(username.status).to.equal(409);
      expect(username.body.detail).to.equal('Username already taken');
    });
    expect(events).to.deep.equal([]);
  });

  it('refuses an edit to a free email and a taken username with 409, appending nothing (no reservation made and released)', async function () {
    const { A, B } = await pair();
    const free = `free.${unique()}@example.com`;
    const before = await h.head();
    const res = await edit(B.userId, { email: free, username: A.username });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.equal('Username already taken');
    expect(await h.eventsSince(before)).to.deep.equal([]);
    expect(await h.rt.infra.eventStore.readStream(reservationStream('email', free))).to.deep.equal([]);
  });

  it('gives a username two admins move two users onto at once to one of them; the other is refused and keeps its names', async function () {
    const { A, B } = await pair();
    const wanted = `both_${unique()}`;
    const emails = [`a2.${unique()}@example.com`, `b2.${unique()}@example.com`];
    const [ra, rb] = await Promise.all([edit(A.userId, { email: emails[0], username: wanted }), edit(B.userId, { email: emails[1], username: wanted })]);
    expect([ra.status, rb.status].sort()).to.deep.equal([200, 409]);
    const [winner, loser, loserEmail] = ra.status === 200 ? [A, B, emails[1]!] : [B, A, emails[0]!];
    expect((ra.status === 200 ? rb : ra).body.detail).to.equal('Username already taken');
    const reservations = await h.rt.infra.eventStore.readStream(reservationStream('username', wanted));
    expect(reservations.map((e) => [e.type, e.data.ownerId])).to.deep.equal([['NameReserved', winner.userId]]);
    await h.projector.caughtUp();
    const users = (await h.request('GET', `/api/admin/users?q=${wanted}`, { token: admin.token })).body as Array<{ id: string }>;
    expect(users.map((u) => u.id)).to.deep.equal([winner.userId]);
    const loserView = (await h.request('GET', `/api/admin/users?q=${loser.username}`, { token: admin.token })).body as Array<{ id: string; email: string }>;
    expect(loserView.map((u) => [u.id, u.email])).to.deep.equal([[loser.userId, loser.email]]);
    // Whatever the loser reserved before it lost the race was given back: its email is free at once.
    await h.signup({ email: loserEmail, username: `after_${unique()}` });
  });

  it('refuses to move B onto the email an admin edit gave A', async function () {
    const { A, B } = await pair();
    const moved = `moved.${unique()}@example.com`;
    expect((await edit(A.userId, { email: moved })).status).to.equal(200);
    await pastGrace('email', moved);
    const res = await edit(B.userId, { email: moved });
    expect(res.status).to.equal(409);
    expect(res.body.detail).to.equal('Email already registered');
  });

  it('keeps A\'s name reserved when an earlier edit of A is replayed with its Idempotency-Key after a later edit', async function () {
    const { A, B } = await pair();
    const [first, second] = [`first.${unique()}@example.com`, `second.${unique()}@example.com`];
    const key = randomUUID();
    expect((await edit(A.userId, { email: first }, { 'idempotency-key': key })).status).to.equal(200);
    expect((await edit(A.userId, { email: second })).status).to.equal(200);
    const replay = await edit(A.userId, { email: first }, { 'idempotency-key': key });
    expect(replay.status).to.equal(200);
    // A still has the second email, and still holds it
    const [secondReservation] = [(await h.rt.infra.eventStore.readStream(reservationStream('email', second))).map((e) => e.type)];
    expect(secondReservation).to.deep.equal(['NameReserved']);
    await pastGrace('email', second);
    const res = await edit(B.userId, { email: second });
    expect(res.status).to.equal(409);
    const signup = await h.request('POST', '/api/auth/signup', {
      body: { email: second, username: `c_${unique()}`, password: 'secret1', confirmPassword: 'secret1' },
    });
    expect(signup.status).to.equal(409);
  });

  it('still moves a user onto a name that was released, and releases the old one', async function () {
    const { A, B } = await pair();
    const moved = `away.${unique()}@example.com`;
    expect((await edit(A.userId, { email: moved })).status).to.equal(200);
    const res = await edit(B.userId, { email: A.email });
    expect(res.status).to.equal(200);
    const login = await h.request('POST', '/api/auth/login', { body: { email: A.email, password: 'secret1' } });
    expect(login.status).to.equal(200);
    expect(login.body.user.id).to.equal(B.userId);
  });
});
