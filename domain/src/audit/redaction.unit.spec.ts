import { expect } from 'chai';
import { REDACTED, isSecretField, redactSecrets } from './redaction';
import { totalPages } from './contracts';

describe('audit redaction', function () {
  it('hides a password hash and any field named like a secret, token, hash or key, at any depth', function () {
    const event = {
      type: 'UserRegistered',
      data: { userId: 'u1', email: 'a@example.com', passwordHash: 'scrypt$abc', nested: [{ stripeSecret: 's', refreshToken: 't', apiKey: 'k', private_key: 'p' }] },
      metadata: { userId: 'u1', requestHash: 'deadbeef', at: '2026-01-01T00:00:00.000Z' },
    };
    const shown = redactSecrets(event);
    expect(shown.data.passwordHash).to.equal(REDACTED);
    expect(shown.data.nested[0]).to.deep.equal({ stripeSecret: REDACTED, refreshToken: REDACTED, apiKey: REDACTED, private_key: REDACTED });
    expect(shown.metadata.requestHash).to.equal(REDACTED);
    expect(JSON.stringify(shown)).not.to.contain('scrypt$abc');
  });

  it('keeps every other field as it is and does not change its input', function () {
    const data = { userId: 'u1', tradeId: 't1', quantity: 0.5, price: 3000, tags: ['a', null], closedTradeIds: ['b1'], source: { kind: 'MANUAL' } };
    const copy = structuredClone(data);
    expect(redactSecrets(data)).to.deep.equal(copy);
    const withHash = { passwordHash: 'h' };
    redactSecrets(withHash);
    expect(withHash.passwordHash).to.equal('h');
  });

  it('names what counts as a secret field', function () {
    for (const name of ['password', 'passwordHash', 'PASSWORD_HASH', 'secret', 'clientSecret', 'token', 'accessToken', 'hash', 'api_key', 'apikey', 'privateKey']) {
      expect(isSecretField(name), name).to.equal(true);
    }
    for (const name of ['userId', 'email', 'tradeId', 'price', 'key', 'idempotencyKey', 'tier']) expect(isSecretField(name), name).to.equal(false);
  });

  it('covers every field that could hold an exchange credential (issue 21): the API settings\' names, passphrases, credentials', function () {
    for (const name of ['binanceKey', 'binanceSecret', 'coinbaseKey', 'coinbaseSecret', 'coinbasePassphrase', 'krakenKey', 'passphrase', 'secretKey', 'apiKey', 'credentials', 'exchangeKey']) {
      expect(isSecretField(name), name).to.equal(true);
    }
    // What the exchange events hold instead: a reference and the key's last four characters.
    for (const name of ['keyLast4', 'exchangeId', 'testnet', 'clientOrderId']) expect(isSecretField(name), name).to.equal(false);
  });

  it('an audit list has at least one page, and as many as its entries fill', function () {
    expect([totalPages(0, 50), totalPages(1, 50), totalPages(50, 50), totalPages(51, 50), totalPages(101, 50)]).to.deep.equal([1, 1, 1, 2, 3]);
  });
});
