/**
 * Sign-up, sign-in, me and logout through HTTP on the embedded app (PGlite): status codes, problem
 * bodies, and the events appended (or not).
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { meSchema } from '@papertrade/domain/auth/contracts';
import { startHarness, type Harness } from '../../../test/api-harness';
import { reservationStream } from './register-account';

const unique = () => randomUUID().slice(0, 8);

describe('auth API (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async function () {
    h = await startHarness();
  });
  after(async function () {
    await h?.stop();
  });

  const appendedBy = (fn: () => Promise<unknown>) => h.appendedBy(fn);

  describe('POST /api/auth/signup', function () {
    it('registers through two reservations and the user stream, with no secret or email in the events', async function () {
      const id = unique();
      const email = `Ann.${id}@Example.com`;
      let res!: Awaited<ReturnType<Harness['request']>>;
      const events = await appendedBy(async () => {
        res = await h.request('POST', '/api/auth/signup', {
          body: { email, username: `ann_${id}`, firstName: 'Ann', lastName: '', password: 'hunter22', confirmPassword: 'hunter22' },
        });
      });
      expect(res.status).to.equal(201);
      expect(res.body.userId).to.match(/^[0-9a-f-]{36}$/);
      expect(res.body.position).to.be.a('string');
      expect(events.map((e) => [e.type, e.streamId])).to.deep.equal([
        ['NameReserved', reservationStream('email', email)],
        ['NameReserved', reservationStream('username', `ann_${id}`)],
        ['UserRegistered', `user-${res.body.userId}`],
      ]);
      expect(events[2]!.position).to.equal(res.body.position);
      const registered = events[2]!.data;
      expect(registered).to.include({ email, username: `ann_${id}`, firstName: 'Ann', lastName: null });
      expect(String(registered.passwordHash)).to.match(/^scrypt\$/);
      const everything = JSON.stringify(events.map((e) => [e.streamId, e.data, e.metadata]));
      expect(everything).not.to.include('hunter22');
      for (const e of events.slice(0, 2)) expect(e.streamId.toLowerCase()).not.to.include('ann');
      expect(events[0]!.metadata).to.include({ userId: 'anonymous', schemaVersion: 1 });
      expect(events[0]!.metadata.correlationId).to.be.a('string');
    });

    it('refuses a taken email case-insensitively and a taken username, appending nothing', async function () {
      const id = unique();
      await h.signup({ email: `bo.${id}@example.com`, username: `bo_${id}` });
      let res!: Awaited<ReturnType<Harness['request']>>;
      let events = await appendedBy(async () => {
        res = await h.request('POST', '/api/auth/signup', {
          body: { email: `BO.${id}@EXAMPLE.COM`, username: `other_${id}`, password: 'secret1', confirmPassword: 'secret1' },
        });
      });
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ status: 409, detail: 'Email already registered' });
      expect(res.headers.get('content-type')).to.include('application/problem+json');
      expect(events).to.deep.equal([]);
      events = await appendedBy(async () => {
        res = await h.request('POST', '/api/auth/signup', {
          body: { email: `new.${id}@example.com`, username: `BO_${id}`, password: 'secret1', confirmPassword: 'secret1' },
        });
      });
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.equal('Username already taken');
      expect(events).to.deep.equal([]);
    });

    const valid = () => {
      const id = unique();
      return { email: `v.${id}@example.com`, username: `v_${id}`, password: 'secret1', confirmPassword: 'secret1' };
    };
    const badBodies: Array<[string, () => unknown, RegExp]> = [
      ['a missing email', () => ({ ...valid(), email: undefined }), /email: is required/],
      ['a malformed email', () => ({ ...valid(), email: 'not-an-email' }), /email: must be a valid email address/],
      ['a number for the username', () => ({ ...valid(), username: 12345 }), /username/],
      ['a two-letter username', () => ({ ...valid(), username: 'ab' }), /username: must be 3-32 characters/],
      ['a short password', () => ({ ...valid(), password: '12345', confirmPassword: '12345' }), /password: must be at least 6 characters/],
      ['a confirmation that differs', () => ({ ...valid(), confirmPassword: 'different' }), /confirmPassword: must match password/],
      ['an unknown field', () => ({ ...valid(), isAdmin: true }), /unknown field: isAdmin/],
      ['an array', () => [valid()], /expected object/i],
      ['a 300-character first name', () => ({ ...valid(), firstName: 'x'.repeat(300) }), /firstName: must be at most 64 characters/],
      // A line separator let a formula past the CSV escape (issue 16 item 15); format characters are invisible.
      ['a line separator in the first name', () => ({ ...valid(), firstName: '=HYPERLINK("https://evil.example")\u2028Ann' }), /firstName: must not contain .*\(found U\+2028\)/],
      ['a paragraph separator in the last name', () => ({ ...valid(), lastName: 'Lee\u2029=1+1' }), /lastName: must not contain .*\(found U\+2029\)/],
      ['a right-to-left override in the last name', () => ({ ...valid(), lastName: 'Lee\u202Egnp.exe' }), /lastName: must not contain .*\(found U\+202E\)/],
      ['a zero-width space in the first name', () => ({ ...valid(), firstName: 'An\u200Bn' }), /firstName: must not contain .*\(found U\+200B\)/],
    ];
    for (const [name, body, detail] of badBodies) {
      it(`answers 400 naming the field for ${name}, appending nothing`, async function () {
        let res!: Awaited<ReturnType<Harness['request']>>;
        const events = await appendedBy(async () => {
          res = await h.request('POST', '/api/auth/signup', { body: body() });
        });
        expect(res.status).to.equal(400);
        expect(res.body.title).to.equal('Invalid request');
        expect(res.body.detail).to.match(detail);
        expect(res.body.fields).to.be.an('array').that.is.not.empty;
        expect(res.body.fields).to.not.include('');
        expect(events).to.deep.equal([]);
      });
    }

    it('answers 400 for malformed JSON, a missing body and a non-JSON content type', async function () {
      const events = await appendedBy(async () => {
        const malformed = await h.request('POST', '/api/auth/signup', { raw: '{"email": "a@b.c",' });
        expect(malformed.status).to.equal(400);
        expect(malformed.body.detail).to.equal('The request body is not valid JSON');
        const empty = await h.request('POST', '/api/auth/signup');
        expect(empty.status).to.equal(400);
        expect(empty.body.detail).to.equal('A JSON request body is required');
        const text = await h.request('POST', '/api/auth/signup', { raw: 'email=a@b.c', headers: { 'content-type': 'text/plain' } });
        expect(text.status).to.equal(400);
        expect(text.body.detail).to.match(/must be JSON/);
      });
      expect(events).to.deep.equal([]);
    });

    it('answers 413 for a body over 100 kB', async function () {
      const events = await appendedBy(async () => {
        const res = await h.request('POST', '/api/auth/signup', { body: { ...valid(), firstName: 'x'.repeat(120_000) } });
        expect(res.status).to.equal(413);
        expect(res.body.detail).to.match(/100 kB/);
      });
      expect(events).to.deep.equal([]);
    });

    it('replays an Idempotency-Key with the same body (same ids, nothing appended) and refuses it with another body (422)', async function () {
      const body = valid();
      const key = randomUUID();
      const first = await h.request('POST', '/api/auth/signup', { body, headers: { 'idempotency-key': key } });
      expect(first.status).to.equal(201);
      let again!: Awaited<ReturnType<Harness['request']>>;
      const events = await appendedBy(async () => {
        again = await h.request('POST', '/api/auth/signup', { body, headers: { 'idempotency-key': key } });
      });
      expect(again.status).to.equal(201);
      expect(again.body).to.deep.equal(first.body);
      expect(events).to.deep.equal([]);
      let other!: Awaited<ReturnType<Harness['request']>>;
      const otherEvents = await appendedBy(async () => {
        other = await h.request('POST', '/api/auth/signup', { body: { ...valid() }, headers: { 'idempotency-key': key } });
      });
      expect(other.status).to.equal(422);
      expect(other.body.detail).to.match(/Idempotency-Key was already used/);
      expect(otherEvents).to.deep.equal([]);
    });

    it('keeps an email unique under concurrent sign-ups', async function () {
      const id = unique();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          h.request('POST', '/api/auth/signup', {
            body: { email: `race.${id}@example.com`, username: `race_${id}_${i}`, password: 'secret1', confirmPassword: 'secret1' },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      for (const r of results.filter((r) => r.status !== 201)) expect(r.body.detail).to.equal('Email already registered');
      const all = await h.eventsSince(undefined);
      const registered = all.filter((e) => e.type === 'UserRegistered' && String(e.data.email) === `race.${id}@example.com`);
      expect(registered).to.have.length(1);
    });

    it('reclaims a reservation orphaned by a crash between appends, but not a fresh one', async function () {
      const id = unique();
      const email = `orphan.${id}@example.com`;
      const ghost = randomUUID();
      const meta = { userId: 'anonymous', correlationId: randomUUID(), causationId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 };
      // A sign-up that reserved the email and then died: no user-{ghost} stream exists.
      await h.rt.infra.eventStore.append(
        reservationStream('email', email),
        [{ id: randomUUID(), type: 'NameReserved', data: { ownerId: ghost, reservedAt: new Date(Date.now() - 5 * 60_000).toISOString() }, metadata: meta }],
        'no_stream',
      );
      let res!: Awaited<ReturnType<Harness['request']>>;
      const events = await appendedBy(async () => {
        res = await h.request('POST', '/api/auth/signup', { body: { email, username: `orphan_${id}`, password: 'secret1', confirmPassword: 'secret1' } });
      });
      expect(res.status).to.equal(201);
      expect(events.slice(0, 2).map((e) => [e.type, e.data.ownerId, e.data.reason])).to.deep.equal([
        ['ReservationReleased', ghost, 'orphaned'],
        ['NameReserved', res.body.userId, undefined],
      ]);

      const freshEmail = `inflight.${id}@example.com`;
      await h.rt.infra.eventStore.append(
        reservationStream('email', freshEmail),
        [{ id: randomUUID(), type: 'NameReserved', data: { ownerId: randomUUID(), reservedAt: new Date().toISOString() }, metadata: meta }],
        'no_stream',
      );
      const inflight = await h.request('POST', '/api/auth/signup', {
        body: { email: freshEmail, username: `inflight_${id}`, password: 'secret1', confirmPassword: 'secret1' },
      });
      expect(inflight.status).to.equal(409);
    });

    it('refuses a username an unfinished sign-up holds with 409 before reserving the free email: nothing appended', async function () {
      const id = unique();
      // The username is reserved by an in-flight sign-up (no user yet, within the orphan grace).
      const meta = { userId: 'anonymous', correlationId: randomUUID(), causationId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 };
      await h.rt.infra.eventStore.append(
        reservationStream('username', `held_${id}`),
        [{ id: randomUUID(), type: 'NameReserved', data: { ownerId: randomUUID(), reservedAt: new Date().toISOString() }, metadata: meta }],
        'no_stream',
      );
      let res!: Awaited<ReturnType<Harness['request']>>;
      const events = await appendedBy(async () => {
        res = await h.request('POST', '/api/auth/signup', {
          body: { email: `held.${id}@example.com`, username: `held_${id}`, password: 'secret1', confirmPassword: 'secret1' },
        });
      });
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.equal('Username already taken');
      expect(events).to.deep.equal([]);
      // and the address is free at once
      await h.signup({ email: `held.${id}@example.com`, username: `free_${id}` });
    });

    it('gives a username one of many concurrent sign-ups; the others leave their (free) emails free', async function () {
      const id = unique();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          h.request('POST', '/api/auth/signup', {
            body: { email: `same.${id}.${i}@example.com`, username: `same_${id}`, password: 'secret1', confirmPassword: 'secret1' },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(1);
      for (const r of results.filter((r) => r.status !== 201)) expect([r.status, r.body.detail]).to.deep.equal([409, 'Username already taken']);
      // A loser that reserved its email before it lost the race released it: each free email signs up again.
      for (const [i, r] of results.entries()) if (r.status !== 201) await h.signup({ email: `same.${id}.${i}@example.com`, username: `again_${id}_${i}` });
    });
  });

  describe('POST /api/auth/login and GET /api/auth/me', function () {
    it('signs in (email case-insensitive) with a user of exactly the me shape, and me answers the same', async function () {
      const id = unique();
      const { position } = await h.signup({ email: `cy.${id}@example.com`, username: `cy_${id}`, firstName: 'Cy' });
      let res!: Awaited<ReturnType<Harness['request']>>;
      const events = await appendedBy(async () => {
        res = await h.request('POST', '/api/auth/login', {
          body: { email: ` CY.${id}@EXAMPLE.com `, password: 'secret1' },
          headers: { 'x-min-position': position },
        });
      });
      expect(res.status).to.equal(200);
      expect(events).to.deep.equal([]);
      expect(meSchema.parse(res.body.user)).to.deep.equal(res.body.user);
      expect(res.body.user).to.include({ email: `cy.${id}@example.com`, username: `cy_${id}`, firstName: 'Cy', lastName: null, subscriptionTier: 'FREE', subscriptionStatus: 'ACTIVE', isAdmin: false });
      const me = await h.request('GET', '/api/auth/me', { token: res.body.token });
      expect(me.status).to.equal(200);
      expect(me.body).to.deep.equal(res.body.user);
      const payload = jwt.decode(res.body.token) as jwt.JwtPayload;
      expect(payload.sub).to.equal(res.body.user.id);
      expect(payload.exp! - payload.iat!).to.equal(24 * 3600);
    });

    it('answers the same 401 for a wrong password and an unknown email', async function () {
      const id = unique();
      await h.signup({ email: `dee.${id}@example.com`, username: `dee_${id}` });
      await h.projector.caughtUp();
      const wrong = await h.request('POST', '/api/auth/login', { body: { email: `dee.${id}@example.com`, password: 'nope-nope' } });
      const unknown = await h.request('POST', '/api/auth/login', { body: { email: `nobody.${id}@example.com`, password: 'nope-nope' } });
      expect(wrong.status).to.equal(401);
      expect(unknown.status).to.equal(401);
      expect(wrong.body).to.deep.equal(unknown.body);
      expect(wrong.body.detail).to.equal('Invalid email or password');
    });

    it('answers 400 for missing fields and wrong types', async function () {
      const missing = await h.request('POST', '/api/auth/login', { body: { email: 'a@b.co' } });
      expect(missing.status).to.equal(400);
      expect(missing.body.detail).to.match(/password: is required/);
      const typed = await h.request('POST', '/api/auth/login', { body: { email: 42, password: true } });
      expect(typed.status).to.equal(400);
      expect(typed.body.detail).to.match(/email/);
    });

    it('locks an account for 15 minutes after 5 failures (429), even with the right password', async function () {
      const id = unique();
      await h.signup({ email: `eve.${id}@example.com`, username: `eve_${id}` });
      await h.projector.caughtUp();
      for (let i = 0; i < 5; i++) {
        const r = await h.request('POST', '/api/auth/login', { body: { email: `eve.${id}@example.com`, password: 'wrong-one' } });
        expect(r.status).to.equal(401);
      }
      const locked = await h.request('POST', '/api/auth/login', { body: { email: `eve.${id}@example.com`, password: 'secret1' } });
      expect(locked.status).to.equal(429);
      expect(locked.body.detail).to.match(/Too many failed sign-in attempts/);
    });

    const badTokens: Array<[string, () => string]> = [
      ['garbage', () => 'not.a.jwt'],
      ['signed with another secret', () => jwt.sign({ sub: randomUUID() }, 'another-secret-another-secret-another', { algorithm: 'HS256', expiresIn: 60 })],
      ['expired', () => jwt.sign({ sub: randomUUID(), exp: Math.floor(Date.now() / 1000) - 10 }, 'test-secret-test-secret-test-secret!!', { algorithm: 'HS256' })],
      ['unsigned (alg none)', () => jwt.sign({ sub: randomUUID() }, '', { algorithm: 'none' })],
      ['for a user that does not exist', () => jwt.sign({ sub: randomUUID() }, 'test-secret-test-secret-test-secret!!', { algorithm: 'HS256', expiresIn: 60 })],
    ];
    for (const [name, token] of badTokens) {
      it(`answers me with 401 for a token ${name}`, async function () {
        const res = await h.request('GET', '/api/auth/me', { token: token() });
        expect(res.status).to.equal(401);
        expect(res.body.detail).to.be.a('string').and.not.be.empty;
      });
    }

    it('answers me with 401 without a token, and 400 for a malformed X-Min-Position', async function () {
      const res = await h.request('GET', '/api/auth/me');
      expect(res.status).to.equal(401);
      expect(res.body.detail).to.match(/Authentication required/);
      const admin = await h.admin();
      const bad = await h.request('GET', '/api/auth/me', { token: admin.token, headers: { 'x-min-position': '12' } });
      expect(bad.status).to.equal(400);
      expect(bad.body.detail).to.match(/X-Min-Position/);
    });

    it('logs out with 204', async function () {
      const res = await h.request('POST', '/api/auth/logout');
      expect(res.status).to.equal(204);
    });
  });

  describe('unknown paths', function () {
    it('answers JSON 404 for unknown /api paths and wrong methods', async function () {
      for (const [method, path] of [['GET', '/api/nothing'], ['GET', '/api/auth/signup'], ['DELETE', '/api/auth/me'], ['POST', '/api/plans']] as const) {
        const res = await h.request(method, path);
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.headers.get('content-type')).to.include('application/problem+json');
        expect(res.body.detail).to.equal(`No endpoint ${method} ${path}`);
      }
    });
  });
});

describe('auth API: per-IP sign-in limit', function () {
  let h: Harness;
  before(async function () {
    h = await startHarness({ LOGIN_MAX_ATTEMPTS_PER_IP: '3' });
  });
  after(async function () {
    await h?.stop();
  });

  it('answers 429 after the per-IP attempts of the window', async function () {
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await h.request('POST', '/api/auth/login', { body: { email: `x${i}@example.com`, password: 'whatever' } })).status);
    }
    expect(statuses).to.deep.equal([401, 401, 401, 429]);
  });
});
