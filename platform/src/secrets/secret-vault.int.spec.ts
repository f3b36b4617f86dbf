/** The exchange secrets vault on a real document store (PGlite): sealed at rest, read back only by its owner's reference, rotated. */
import { expect } from 'chai';
import { pgliteStores } from '../../../test/pglite-stores';
import { EXCHANGE_SECRETS_COLLECTION, SecretVault } from './secret-vault';
import { parseSecretsKey } from './secrets-key';

describe('secret vault (PGlite)', function () {
  this.timeout(30_000);
  let stores: Awaited<ReturnType<typeof pgliteStores>>;
  const oldKey = parseSecretsKey('aa'.repeat(32));
  const newKey = parseSecretsKey('bb'.repeat(32));
  const credentials = { apiKey: 'vault-api-key-0001', secret: 'vault-secret-value-0001', passphrase: 'vault-pass' };

  before(async () => (stores = await pgliteStores()));
  after(async () => stores.cleanup());

  it('stores a sealed record under a new reference each time; the document holds no credential', async function () {
    const vault = new SecretVault(stores.documents, oldKey);
    const a = await vault.store('u1', 'binance', credentials);
    const b = await vault.store('u1', 'binance', credentials);
    expect(a).not.to.equal(b);
    const docs = await stores.documents.collection(EXCHANGE_SECRETS_COLLECTION).find({});
    const text = JSON.stringify(docs);
    for (const value of Object.values(credentials)) {
      for (const encoded of [value, Buffer.from(value).toString('base64'), Buffer.from(value).toString('hex')]) expect(text).not.to.contain(encoded);
    }
    expect(await vault.read(a, 'u1', 'binance')).to.deep.equal(credentials);
    expect(await vault.read(a, 'u2', 'binance')).to.equal(undefined);
    expect(await vault.read(a, 'u1', 'kraken')).to.equal(undefined);
    await vault.remove(b);
    expect(await vault.read(b, 'u1', 'binance')).to.equal(undefined);
  });

  it('rotates every record to a new key: the old key no longer opens them, the new one does, and a second run changes nothing', async function () {
    const vault = new SecretVault(stores.documents, oldKey);
    const ref = await vault.store('u3', 'coinbase', credentials);
    const before = JSON.stringify(await stores.documents.collection(EXCHANGE_SECRETS_COLLECTION).get(ref));
    const first = await vault.rotateTo(newKey);
    expect(first.rotated).to.be.at.least(2);
    expect(JSON.stringify(await stores.documents.collection(EXCHANGE_SECRETS_COLLECTION).get(ref))).not.to.equal(before);
    const rotated = new SecretVault(stores.documents, newKey);
    expect(await rotated.read(ref, 'u3', 'coinbase')).to.deep.equal(credentials);
    let error: unknown;
    await vault.read(ref, 'u3', 'coinbase').catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/another SECRETS_KEY/);
    expect(await vault.rotateTo(newKey)).to.deep.equal({ rotated: 0, alreadyRotated: first.rotated });
  });
});
