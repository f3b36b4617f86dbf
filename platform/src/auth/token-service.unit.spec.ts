import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { TOKEN_TTL_SECONDS, TokenService } from './tokens';

const secret = 'a-secret-of-at-least-32-characters!!';
const t0 = new Date('2026-05-01T12:00:00.000Z');
const at = (ms: number) => () => new Date(t0.getTime() + ms);

describe('bearer tokens', function () {
  it('refuses a secret shorter than 32 characters', function () {
    expect(() => new TokenService('s'.repeat(31))).to.throw('JWT_SECRET must be at least 32 characters');
    expect(() => new TokenService('s'.repeat(32))).to.not.throw();
  });

  it('carries the user id, issued now, for 24 hours', function () {
    const token = new TokenService(secret, at(0)).issue('11111111-1111-4111-8111-111111111111');
    expect(jwt.decode(token)).to.deep.equal({ sub: '11111111-1111-4111-8111-111111111111', iat: t0.getTime() / 1000, exp: t0.getTime() / 1000 + 24 * 60 * 60 });
    expect(jwt.decode(token, { complete: true })?.header.alg).to.equal('HS256');
    expect(TOKEN_TTL_SECONDS).to.equal(86_400);
  });

  it('is valid until it expires, by the injected clock', function () {
    const token = new TokenService(secret, at(0)).issue('11111111-1111-4111-8111-111111111111');
    expect(new TokenService(secret, at(0)).verify(token)).to.equal('11111111-1111-4111-8111-111111111111');
    expect(new TokenService(secret, at(TOKEN_TTL_SECONDS * 1000 - 1000)).verify(token)).to.equal('11111111-1111-4111-8111-111111111111');
    expect(new TokenService(secret, at(TOKEN_TTL_SECONDS * 1000)).verify(token)).to.equal(null);
    // A clock far from the real one: the token is judged by the service's time, not the machine's.
    const past = () => new Date('2001-01-01T00:00:00.000Z');
    expect(new TokenService(secret, past).verify(new TokenService(secret, past).issue('22222222-2222-4222-8222-222222222222'))).to.equal('22222222-2222-4222-8222-222222222222');
  });

  it('keeps a verified token no longer than its expiry, and never an invalid one (the verified-token cache)', function () {
    let ms = 0;
    const position = `${'1'.padStart(20, '0')}-${'7'.padStart(20, '0')}`;
    const service = new TokenService(secret, () => new Date(t0.getTime() + ms));
    const token = service.issue('11111111-1111-4111-8111-111111111111', { position: position as never });
    expect(service.claims(token)).to.deep.equal({ userId: '11111111-1111-4111-8111-111111111111', position });
    // Served from the cache now: still the same answer until exp, then refused (and forgotten).
    ms = TOKEN_TTL_SECONDS * 1000 - 1000;
    expect(service.verify(token)).to.equal('11111111-1111-4111-8111-111111111111');
    ms = TOKEN_TTL_SECONDS * 1000;
    expect(service.verify(token)).to.equal(null);
    ms = 0;
    expect(service.verify(token)).to.equal('11111111-1111-4111-8111-111111111111');
    // The same claims under another key, and a token with one character of its signature changed,
    // are checked, not taken from the cache.
    const claims = { sub: '11111111-1111-4111-8111-111111111111', iat: t0.getTime() / 1000, exp: t0.getTime() / 1000 + 60 };
    expect(service.verify(jwt.sign(claims, `${secret}-other`, { algorithm: 'HS256' }))).to.equal(null);
    const at = token.length - 10;
    expect(service.verify(token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1))).to.equal(null);
  });

  it('refuses a token signed with another secret or algorithm, or not signed at all', function () {
    const service = new TokenService(secret, at(0));
    const claims = { sub: '11111111-1111-4111-8111-111111111111', iat: t0.getTime() / 1000, exp: t0.getTime() / 1000 + 60 };
    expect(service.verify(jwt.sign(claims, `${secret}-other`, { algorithm: 'HS256' }))).to.equal(null);
    expect(service.verify(jwt.sign(claims, secret, { algorithm: 'HS512' }))).to.equal(null);
    expect(service.verify(jwt.sign(claims, null, { algorithm: 'none' }))).to.equal(null);
    expect(service.verify('not.a.token')).to.equal(null);
    expect(service.verify('')).to.equal(null);
  });

  it('refuses a token without a usable subject', function () {
    const service = new TokenService(secret, at(0));
    const sign = (claims: object) => jwt.sign({ iat: t0.getTime() / 1000, exp: t0.getTime() / 1000 + 60, ...claims }, secret, { algorithm: 'HS256' });
    expect(service.verify(sign({ sub: '11111111-1111-4111-8111-111111111111' }))).to.equal('11111111-1111-4111-8111-111111111111');
    expect(service.verify(sign({}))).to.equal(null);
    expect(service.verify(sign({ sub: '' }))).to.equal(null);
  });
});
