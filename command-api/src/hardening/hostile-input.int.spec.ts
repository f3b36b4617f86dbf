/**
 * Hostile input through HTTP on the embedded app: prototype-pollution keys, NUL characters and lone
 * UTF-16 surrogates, odd route ids, and tokens that are validly signed but carry a bad subject or no
 * expiry. Each answers 4xx with a problem body a person can read, and appends nothing; none is a 500.
 */
import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { startHarness, type Harness } from '../../../test/api-harness';

const SECRET = 'test-secret-test-secret-test-secret!!';
const unique = () => randomUUID().slice(0, 8);
/** HS256 by hand: jsonwebtoken's sign() refuses some of the payloads these tests need (a text exp). */
function signRaw(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
  return `${unsigned}.${createHmac('sha256', SECRET).update(unsigned).digest('base64url')}`;
}
type Answer = Awaited<ReturnType<Harness['request']>>;

describe('hostile input (HTTP, embedded)', function () {
  this.timeout(60_000);
  let h: Harness;
  let admin: { id: string; token: string };
  let target: string;

  before(async function () {
    h = await startHarness();
    admin = await h.admin();
    const id = unique();
    target = (await h.signup({ email: `target.${id}@example.com`, username: `target_${id}` })).userId;
    await h.projector.caughtUp();
  });
  after(async function () {
    await h?.stop();
  });

  /** Sends a request and returns its answer with the events it appended. */
  async function send(method: string, path: string, options: Parameters<Harness['request']>[2]): Promise<{ res: Answer; events: unknown[] }> {
    let res!: Answer;
    const events = await h.appendedBy(async () => {
      res = await h.request(method, path, options);
    });
    return { res, events };
  }

  function expectRefused({ res, events }: { res: Answer; events: unknown[] }, detail: RegExp, status = 400) {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.headers.get('content-type')).to.include('application/problem+json');
    expect(res.body.detail).to.match(detail);
    expect(events).to.deep.equal([]);
  }

  const signupBody = () => {
    const id = unique();
    return `"email":"p.${id}@example.com","username":"p_${id}","password":"secret1","confirmPassword":"secret1"`;
  };
  /** Raw JSON texts: an object literal with `__proto__` would set the prototype, not send the key. */
  const endpoints: Array<{ name: string; method: string; path: () => string; fields: () => string; token?: () => string }> = [
    { name: 'POST /api/auth/signup', method: 'POST', path: () => '/api/auth/signup', fields: signupBody },
    { name: 'POST /api/auth/login', method: 'POST', path: () => '/api/auth/login', fields: () => `"email":"nobody@example.com","password":"secret1"` },
    { name: 'PUT /api/admin/users/{id}', method: 'PUT', path: () => `/api/admin/users/${target}`, fields: () => `"firstName":"Polly"`, token: () => admin.token },
  ];

  describe('prototype keys anywhere in a JSON body', function () {
    for (const endpoint of endpoints) {
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        const placements: Array<[string, (fields: string) => string]> = [
          ['at the top level', (fields) => `{${fields},"${key}":{"isAdmin":true}}`],
          ['nested in an object', (fields) => `{${fields},"extra":{"deeper":{"${key}":{"isAdmin":true}}}}`],
          ['inside an array', (fields) => `{${fields},"list":[1,{"${key}":{"polluted":1}}]}`],
        ];
        if (key === '__proto__') placements.push(['spelled with JSON escapes', (fields) => `{${fields},"\\u005f_proto__":{"isAdmin":true}}`]);
        for (const [where, json] of placements) {
          it(`${endpoint.name}: "${key}" ${where} answers 400 naming the key, appending nothing`, async function () {
            const answer = await send(endpoint.method, endpoint.path(), { raw: json(endpoint.fields()), ...(endpoint.token ? { token: endpoint.token() } : {}) });
            expectRefused(answer, new RegExp(`must not contain the key "${key}"`));
          });
        }
      }
    }

    it('finds a key 15,000 levels deep without overflowing the stack, and says where in a short detail', async function () {
      const depth = 15_000;
      const answer = await send('POST', '/api/auth/login', { raw: `{"email":"a@b.co","password":"secret1","x":${'{"a":'.repeat(depth)}{"constructor":1}${'}'.repeat(depth)}}` });
      expectRefused(answer, /must not contain the key "constructor" \(found in body\.x\.a\.a.*\.\.\..*a\.a\)/);
      expect(answer.res.body.detail.length).to.be.below(300);
      const arrays = await send('POST', '/api/auth/login', { raw: `{"email":"a@b.co","password":"secret1","x":${'['.repeat(depth)}${']'.repeat(depth)}}` });
      expectRefused(arrays, /unknown field: x/);
    });

    it('leaves Object.prototype untouched', function () {
      expect(({} as Record<string, unknown>).isAdmin).to.equal(undefined);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });
  });

  describe('NUL characters and lone surrogates in names, usernames and emails', function () {
    // JSON escapes, so the texts travel intact: `\u0000` is NUL, `\ud800` a lone high surrogate.
    const bad: Array<[string, string]> = [
      ['a NUL', '\\u0000'],
      ['a lone high surrogate', '\\ud800'],
      ['a lone low surrogate', '\\udc00'],
    ];
    for (const [what, escape] of bad) {
      it(`signup: ${what} in each text field answers 400 naming the field`, async function () {
        const id = unique();
        const fields: Record<string, string> = {
          email: `"email":"s${escape}.${id}@example.com"`,
          username: `"username":"s${escape}_${id}"`,
          firstName: `"firstName":"Ann${escape}"`,
          lastName: `"lastName":"Lee${escape}"`,
        };
        for (const [field, text] of Object.entries(fields)) {
          const base: Record<string, string> = {
            email: `"email":"s.${id}@example.com"`,
            username: `"username":"s_${id}"`,
            password: `"password":"secret1"`,
            confirmPassword: `"confirmPassword":"secret1"`,
          };
          base[field] = text;
          const answer = await send('POST', '/api/auth/signup', { raw: `{${Object.values(base).join(',')}}` });
          expectRefused(answer, new RegExp(`${field}: must not contain`));
          expect(answer.res.body.fields).to.deep.equal([field]);
        }
      });

      it(`login: ${what} in the email answers 400 naming it`, async function () {
        const answer = await send('POST', '/api/auth/login', { raw: `{"email":"x${escape}@example.com","password":"secret1"}` });
        expectRefused(answer, /email: must not contain/);
      });

      it(`admin edit: ${what} in each text field answers 400 naming the field`, async function () {
        for (const [field, text] of [
          ['email', `"e${escape}@example.com"`],
          ['username', `"u${escape}_name"`],
          ['firstName', `"F${escape}"`],
          ['lastName', `"L${escape}"`],
        ]) {
          const answer = await send('PUT', `/api/admin/users/${target}`, { raw: `{"${field}":${text}}`, token: admin.token });
          expectRefused(answer, new RegExp(`${field}: must not contain`));
        }
      });
    }

    it('still accepts names beyond ASCII, written with surrogate pairs or not', async function () {
      const id = unique();
      const res = await h.request('POST', '/api/auth/signup', {
        raw: `{"email":"u.${id}@example.com","username":"u_${id}","firstName":"Zoë \\ud83d\\ude80","lastName":"Ōtani","password":"secret1","confirmPassword":"secret1"}`,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    });
  });

  describe('headers and route ids', function () {
    it('an Idempotency-Key with a NUL or a non-ASCII character answers 400, appending nothing', async function () {
      // fetch refuses to send a NUL in a header, so that one travels percent-free through a raw socket.
      const nonAscii = await send('PUT', `/api/admin/users/${target}`, {
        body: { firstName: 'Key' },
        token: admin.token,
        headers: { 'idempotency-key': 'k\u00e9y' },
      });
      expectRefused(nonAscii, /Idempotency-Key/);
      const net = await import('node:net');
      const url = new URL(h.url);
      const body = JSON.stringify({ firstName: 'Key' });
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(url.port), url.hostname, () => {
          socket.write(
            `PUT /api/admin/users/${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${admin.token}\r\n` +
              `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nIdempotency-Key: a\u0000b\r\n\r\n${body}`,
          );
        });
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(raw).to.match(/^HTTP\/1\.1 400 /);
    });

    for (const [what, id] of [
      ['a percent-encoded NUL', '%00'],
      ['an encoded lone surrogate (invalid UTF-8)', '%ED%A0%80'],
      ['a broken percent escape', '%E0%A4%A'],
      ['a UUID with a NUL appended', `${randomUUID()}%00`],
    ]) {
      it(`PUT /api/admin/users/{id} with ${what} answers 4xx, appending nothing`, async function () {
        const { res, events } = await send('PUT', `/api/admin/users/${id}`, { body: { firstName: 'Route' }, token: admin.token });
        expect(res.status, JSON.stringify(res.body)).to.be.oneOf([400, 404]);
        expect(res.headers.get('content-type')).to.include('application/problem+json');
        expect(events).to.deep.equal([]);
      });
    }
  });

  describe('bearer tokens signed with the server secret', function () {
    const now = () => Math.floor(Date.now() / 1000);
    const tokens: Array<[string, () => string]> = [
      ['a NUL in its subject', () => signRaw({ sub: `${randomUUID()}\u0000`, exp: now() + 60 })],
      ['a subject that is not a UUID', () => signRaw({ sub: "x' OR 1=1 --", exp: now() + 60 })],
      ['a lone surrogate in its subject', () => signRaw({ sub: 'abc\ud800', exp: now() + 60 })],
      ['no expiry', () => signRaw({ sub: admin.id, iat: now() })],
      ['a non-numeric expiry', () => signRaw({ sub: admin.id, exp: 'tomorrow' })],
      ['a numeric text expiry', () => signRaw({ sub: admin.id, exp: String(now() + 60) })],
      ['an object as its subject', () => signRaw({ sub: { id: admin.id }, exp: now() + 60 })],
    ];
    for (const [name, token] of tokens) {
      it(`GET /api/auth/me with ${name} answers 401`, async function () {
        const res = await h.request('GET', '/api/auth/me', { token: token() });
        expect(res.status, JSON.stringify(res.body)).to.equal(401);
        expect(res.body.detail).to.match(/sign-in token is invalid/);
      });
    }

    it('a well-formed token for the admin still works (the test above is not just refusing everything)', async function () {
      const token = signRaw({ sub: admin.id, exp: now() + 60 });
      expect(jwt.verify(token, SECRET)).to.include({ sub: admin.id });
      const res = await h.request('GET', '/api/auth/me', { token });
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(admin.id);
    });
  });
});
