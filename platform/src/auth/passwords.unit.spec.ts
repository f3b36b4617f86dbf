import { expect } from 'chai';
import { randomBytes, scryptSync } from 'node:crypto';
import { dummyVerify, hashPassword, verifyPassword } from './passwords';

describe('password hashes', function () {
  it('stores scrypt with its parameters, a 16-byte salt and a 64-byte key', async function () {
    const stored = await hashPassword('hunter22');
    const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
    expect([scheme, n, r, p, rest.length]).to.deep.equal(['scrypt', '16384', '8', '1', 0]);
    expect(Buffer.from(salt!, 'base64')).to.have.length(16);
    expect(Buffer.from(key!, 'base64')).to.have.length(64);
    expect(scryptSync('hunter22', Buffer.from(salt!, 'base64'), 64, { N: 16384, r: 8, p: 1 }).toString('base64')).to.equal(key);
  });

  it('salts every hash, and verifies the right password only', async function () {
    const [a, b] = [await hashPassword('hunter22'), await hashPassword('hunter22')];
    expect(a).to.not.equal(b);
    expect(await verifyPassword('hunter22', a)).to.equal(true);
    expect(await verifyPassword('hunter23', a)).to.equal(false);
    expect(await verifyPassword('', a)).to.equal(false);
  });

  it('verifies with the parameters stored in the hash, so they can be raised later', async function () {
    const salt = randomBytes(16);
    const key = scryptSync('old-password', salt, 32, { N: 1024, r: 4, p: 2 });
    const stored = `scrypt$1024$4$2$${salt.toString('base64')}$${key.toString('base64')}`;
    expect(await verifyPassword('old-password', stored)).to.equal(true);
    expect(await verifyPassword('old-passwore', stored)).to.equal(false);
  });

  it('answers false, without throwing, for a stored value it cannot read', async function () {
    const good = (await hashPassword('x')).split('$');
    const variants = [
      ['bcrypt', ...good.slice(1)].join('$'),
      'scrypt$16384$8$1',
      '',
      ...[1, 2, 3, 4, 5].map((i) => good.map((part, j) => (j === i ? '' : part)).join('$')),
    ];
    for (const stored of variants) expect(await verifyPassword('x', stored), stored).to.equal(false);
  });

  it('the dummy check for an unknown account always answers false', async function () {
    expect(await dummyVerify('not-a-real-password')).to.equal(false);
    expect(await dummyVerify('anything')).to.equal(false);
  });
});
