/** TokenService: what a verified token must hold besides a good signature. */
import { expect } from 'chai';
import { createHmac, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TOKEN_TTL_SECONDS, TokenService } from './tokens';

const SECRET = 'unit-secret-unit-secret-unit-secret!!';
const NOW = new Date('2026-03-01T12:00:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

/** HS256 by hand: jsonwebtoken's sign() refuses some payloads these tests need (a text exp). */
function signRaw(payload: Record<string, unknown>, secret = SECRET): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('TokenService', function () {
  const tokens = new TokenService(SECRET, () => NOW);

  it('issues a 24 h token for a user id that verifies back to it', function () {
    const id = randomUUID();
    const token = tokens.issue(id);
    expect(tokens.verify(token)).to.equal(id);
    const payload = jwt.decode(token) as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).to.equal(TOKEN_TTL_SECONDS);
  });

  it('accepts a hand-signed token with a UUID subject and a numeric expiry (the helper signs like the service)', function () {
    const id = randomUUID();
    expect(tokens.verify(signRaw({ sub: id, exp: nowSeconds + 60 }))).to.equal(id);
  });

  it('carries the position at which the account existed, when given one', function () {
    const id = randomUUID();
    const position = '00000000000000000042-00000000000000000003';
    expect(tokens.claims(tokens.issue(id, { position: position as never }))).to.deep.equal({ userId: id, position });
    expect(tokens.claims(tokens.issue(id))).to.deep.equal({ userId: id });
  });

  it('refuses a token whose position is not one the event store could have given', function () {
    const id = randomUUID();
    expect(tokens.claims(signRaw({ sub: id, exp: nowSeconds + 60, pos: 'far-beyond' }))).to.equal(null);
    expect(tokens.claims(signRaw({ sub: id, exp: nowSeconds + 60, pos: 42 }))).to.equal(null);
    expect(() => tokens.issue(id, { position: 'x' as never })).to.throw();
  });

  const refused: Array<[string, () => string]> = [
    ['a NUL in the subject', () => signRaw({ sub: `${randomUUID()}\u0000`, exp: nowSeconds + 60 })],
    ['a subject that is not a UUID', () => signRaw({ sub: 'u-1', exp: nowSeconds + 60 })],
    ['a lone surrogate in the subject', () => signRaw({ sub: `${randomUUID().slice(0, -1)}\ud800`, exp: nowSeconds + 60 })],
    ['a numeric subject', () => signRaw({ sub: 42, exp: nowSeconds + 60 })],
    ['no subject', () => signRaw({ exp: nowSeconds + 60 })],
    ['no expiry', () => signRaw({ sub: randomUUID(), iat: nowSeconds })],
    ['a text expiry', () => signRaw({ sub: randomUUID(), exp: 'tomorrow' })],
    ['a numeric text expiry', () => signRaw({ sub: randomUUID(), exp: String(nowSeconds + 60) })],
    ['an expired token', () => signRaw({ sub: randomUUID(), exp: nowSeconds - 1 })],
    ['another secret', () => signRaw({ sub: randomUUID(), exp: nowSeconds + 60 }, 'other-secret-other-secret-other-secret')],
    ['alg none', () => jwt.sign({ sub: randomUUID(), exp: nowSeconds + 60 }, '', { algorithm: 'none' })],
    ['garbage', () => 'a.b.c'],
  ];
  for (const [name, token] of refused) {
    it(`refuses a token with ${name}`, function () {
      expect(tokens.verify(token())).to.equal(null);
    });
  }

  it('will not issue a token for something that is not a user id', function () {
    expect(() => tokens.issue('u-1')).to.throw(/UUID/);
    expect(() => tokens.issue(`${randomUUID()}\u0000`)).to.throw(/UUID/);
  });
});
