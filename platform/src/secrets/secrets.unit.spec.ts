/** SECRETS_KEY's formats and where it comes from; AES-256-GCM sealing of a secret. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { open, seal, SecretDecryptionError } from './secret-box';
import { generateSecretsKeyText, parseSecretsKey, resolveSecretsKey, SECRETS_KEY_FILE } from './secrets-key';

const keyA = parseSecretsKey('11'.repeat(32));
const keyB = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));

describe('SECRETS_KEY', function () {
  it('is 32 bytes as 64 hex characters or base64 / base64url; anything else is refused without echoing it', function () {
    expect(parseSecretsKey('ab'.repeat(32))).to.have.length(32);
    expect(parseSecretsKey(Buffer.alloc(32, 200).toString('base64'))).to.deep.equal(Buffer.alloc(32, 200));
    expect(parseSecretsKey(Buffer.alloc(32, 200).toString('base64url'))).to.deep.equal(Buffer.alloc(32, 200));
    for (const bad of ['', 'correct horse battery staple', 'ab'.repeat(31), 'ab'.repeat(33), Buffer.alloc(24).toString('base64')]) {
      expect(() => parseSecretsKey(bad)).to.throw(Error, /SECRETS_KEY must be 32 bytes/);
      try {
        parseSecretsKey(bad);
      } catch (error) {
        if (bad) expect((error as Error).message).not.to.contain(bad);
      }
    }
  });

  it('is generated into the embedded data folder (0600) once, and required outside the embedded mode', function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-key-'));
    try {
      const first = resolveSecretsKey({ DATA_DIR: dir }, { embedded: true });
      const file = path.join(dir, SECRETS_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
      expect(resolveSecretsKey({ DATA_DIR: dir }, { embedded: true })).to.deep.equal(first);
      const given = generateSecretsKeyText();
      expect(resolveSecretsKey({ DATA_DIR: dir, SECRETS_KEY: given }, { embedded: true })).to.deep.equal(Buffer.from(given, 'hex'));
      expect(() => resolveSecretsKey({ DATA_DIR: dir }, { embedded: false })).to.throw(/SECRETS_KEY is required outside the embedded mode/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('secret box (AES-256-GCM)', function () {
  const secret = 'binance-secret-0123456789';

  it('gives a different ciphertext on every seal, none of which holds the secret in any encoding', function () {
    const a = seal(keyA, secret, 'ref-1');
    const b = seal(keyA, secret, 'ref-1');
    expect(a.ciphertext).not.to.equal(b.ciphertext);
    expect(a.iv).not.to.equal(b.iv);
    expect(Buffer.from(a.iv, 'base64')).to.have.length(12);
    expect(Buffer.from(a.tag, 'base64')).to.have.length(16);
    const text = JSON.stringify([a, b]);
    for (const encoded of [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('hex')]) expect(text).not.to.contain(encoded);
    expect(open(keyA, a, 'ref-1')).to.equal(secret);
    expect(open(keyA, b, 'ref-1')).to.equal(secret);
  });

  it('opens only with its key, its reference, and an unchanged record', function () {
    const sealed = seal(keyA, secret, 'ref-1');
    expect(() => open(keyB, sealed, 'ref-1')).to.throw(SecretDecryptionError, /another SECRETS_KEY/);
    expect(() => open(keyB, { ...sealed, keyId: seal(keyB, 'x', 'y').keyId }, 'ref-1')).to.throw(SecretDecryptionError, /failed authentication/);
    expect(() => open(keyA, sealed, 'ref-2')).to.throw(SecretDecryptionError, /failed authentication/);
    const bytes = Buffer.from(sealed.ciphertext, 'base64');
    bytes[0]! ^= 1;
    expect(() => open(keyA, { ...sealed, ciphertext: bytes.toString('base64') }, 'ref-1')).to.throw(SecretDecryptionError, /failed authentication/);
  });
});
