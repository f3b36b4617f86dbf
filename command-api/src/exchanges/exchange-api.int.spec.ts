/**
 * The exchange connections and the Settings screen's endpoints through HTTP (embedded app on PGlite,
 * ccxt pointed at the local fake exchange): who may call them, the events each appends (a secret
 * reference and the key's last four, never a key), what the reads then show, every ccxt path
 * (connected, bad key, timeout, malformed answer, rate limited), Kraken's read-only connection, the
 * mirror's rule, the trading mode's confirmation, and bad input of every kind answering 4xx and
 * appending nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { EXCHANGE_SECRETS_COLLECTION } from '@papertrade/platform/secrets/secret-vault';
import { FakeExchangeServer, type FakeBehaviour } from '../../../test/fake-exchange-server';
import { startHarness, type Harness } from '../../../test/api-harness';

const unique = () => randomUUID().slice(0, 8);
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('exchange and settings API (HTTP, embedded, fake exchange)', function () {
  this.timeout(120_000);
  let h: Harness;
  let fake: FakeExchangeServer;
  let free: { userId: string; token: string };

  async function account(premium = true): Promise<{ userId: string; token: string }> {
    const t = unique();
    const email = `ex.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `ex_${t}` });
    if (premium) {
      const admin = await h.admin();
      const up = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      if (up.status !== 200) throw new Error(`upgrade failed: ${up.status}`);
    }
    await h.projector.caughtUp();
    return { userId, token: await h.login(email, 'secret1') };
  }

  /** Keys the fake exchange knows, with a behaviour; the secret base64 as Coinbase and Kraken issue them. */
  function keys(exchange: 'binance' | 'coinbase' | 'kraken', behaviour: FakeBehaviour = 'ok') {
    const t = unique();
    const creds = { apiKey: `${exchange}-key-${t}-K3Y9`, secretKey: b64(`${exchange}-secret-${t}-0123456789`), ...(exchange === 'coinbase' ? { passphrase: `pass-${t}` } : {}) };
    fake.addAccount({ exchange, apiKey: creds.apiKey, secret: creds.secretKey, ...(creds.passphrase ? { passphrase: creds.passphrase } : {}), balances: { BTC: 0.1, ETH: 1, USDT: 3000, USD: 500 }, behaviour });
    return creds;
  }

  before(async function () {
    fake = await FakeExchangeServer.start();
    fake.slowMs = 3000;
    h = await startHarness({ EXCHANGE_API_URL: fake.baseUrl, EXCHANGE_TIMEOUT_MS: '500' });
    free = await account(false);
  });
  after(async function () {
    await h?.stop();
    await fake?.close();
  });

  describe('who may call', function () {
    const routes: Array<[string, string, unknown]> = [
      ['POST', '/api/exchanges/binance/config', { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234' }],
      ['POST', '/api/exchanges/binance/test', undefined],
      ['POST', '/api/exchanges/binance/mirror', { mirrorToTestnet: false }],
      ['POST', '/api/settings/api', { enablePaperTrading: true }],
      ['GET', '/api/exchanges', undefined],
      ['GET', '/api/exchanges/mirror-orders', undefined],
    ];
    it('visitors and bad tokens get 401, free users 403 Premium subscription required, and nothing is appended', async function () {
      for (const [method, path, body] of routes) {
        const events = await h.appendedBy(async () => {
          expect((await h.request(method, path, { body })).status, `${method} ${path} visitor`).to.equal(401);
          expect((await h.request(method, path, { body, token: 'not-a-token' })).status, `${method} ${path} bad token`).to.equal(401);
          const res = await h.request(method, path, { body, token: free.token });
          expect(res.status, `${method} ${path} free`).to.equal(403);
          expect(res.body.detail).to.contain('Premium subscription required');
        });
        expect(events).to.deep.equal([]);
      }
    });

    it('notifications and GET /api/settings are for any signed-in user', async function () {
      expect((await h.request('POST', '/api/settings/notifications', { body: { botTrades: false } })).status).to.equal(401);
      expect((await h.request('POST', '/api/settings/notifications', { body: { botTrades: false }, token: free.token })).status).to.equal(200);
      const settings = await h.request('GET', '/api/settings', { token: free.token });
      expect(settings.status).to.equal(200);
      expect(settings.body).to.deep.equal({ notifications: { botTrades: false, botStatus: true, riskAlerts: true, mirrorFills: true }, tradingMode: { paperTrading: true, realTrading: false } });
    });
  });

  describe('a connection, from keys to balance', function () {
    it('saves the keys sealed: the event holds a reference and the last four, the answer and the read no key', async function () {
      const user = await account();
      const creds = keys('binance');
      let res: Awaited<ReturnType<Harness['request']>> | undefined;
      const events = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: { apiKey: creds.apiKey, secretKey: creds.secretKey } });
      });
      expect(res!.status, JSON.stringify(res!.body)).to.equal(200);
      expect(res!.body).to.deep.include({ exchangeId: 'binance', status: 'disconnected', keyLast4: 'K3Y9', testnet: true });
      expect(events.map((e) => [e.type, e.streamId])).to.deep.equal([['ExchangeCredentialsSaved', `exchange-${user.userId}-binance`]]);
      expect(Object.keys(events[0]!.data).sort()).to.deep.equal(['exchangeId', 'keyLast4', 'savedAt', 'secretRef', 'testnet', 'userId']);
      const everything = JSON.stringify([res!.body, events.map((e) => ({ data: e.data, metadata: e.metadata }))]);
      expect(everything).not.to.contain(creds.apiKey);
      expect(everything).not.to.contain(creds.secretKey);
      const read = await h.request('GET', '/api/exchanges', { token: user.token });
      expect(read.status).to.equal(200);
      const binance = read.body.exchanges.find((e: { id: string }) => e.id === 'binance');
      expect(binance).to.deep.include({ name: 'Binance', feePercent: 0.1, configured: true, keyLast4: 'K3Y9', testnet: true, status: 'disconnected', readOnly: false, balance: null });
      expect(JSON.stringify(read.body)).not.to.contain(creds.secretKey);
    });

    it('a new save seals a new ciphertext (another IV) and forgets the one it replaced', async function () {
      const user = await account();
      const creds = keys('binance');
      const secrets = h.rt.infra.documents.collection<{ userId: string; sealed: { ciphertext: string } }>(EXCHANGE_SECRETS_COLLECTION);
      const sealedOf = async () => (await secrets.find({ where: { userId: user.userId } })).map((d) => d.sealed.ciphertext);
      await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: { apiKey: creds.apiKey, secretKey: creds.secretKey } });
      const first = await sealedOf();
      await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: { apiKey: creds.apiKey, secretKey: creds.secretKey } });
      const second = await sealedOf();
      expect(first).to.have.length(1);
      expect(second).to.have.length(1);
      expect(second[0]).not.to.equal(first[0]);
    });

    it('Test Connection: connected with the balance valued at the market, and the read marks it connected', async function () {
      const user = await account();
      const creds = keys('binance');
      await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: { apiKey: creds.apiKey, secretKey: creds.secretKey } });
      let res: Awaited<ReturnType<Harness['request']>> | undefined;
      const events = await h.appendedBy(async () => {
        res = await h.request('POST', '/api/exchanges/binance/test', { token: user.token });
      });
      expect(res!.status, JSON.stringify(res!.body)).to.equal(200);
      expect(res!.body.status).to.equal('connected');
      expect(res!.body.error).to.equal(null);
      const assets = Object.fromEntries(res!.body.balance.assets.map((a: { asset: string; total: number }) => [a.asset, a.total]));
      expect(assets).to.deep.equal({ BTC: 0.1, ETH: 1, USD: 500, USDT: 3000 });
      expect(res!.body.balance.totalUsd).to.be.greaterThan(3500);
      expect(res!.body.balance.allocatedPercent).to.be.within(0.01, 99.99);
      expect(events.map((e) => e.type)).to.deep.equal(['ExchangeConnectionTested']);
      expect(events[0]!.data).to.deep.include({ status: 'connected', testnet: true, error: null });
      const read = await h.request('GET', '/api/exchanges', { token: user.token });
      const binance = read.body.exchanges.find((e: { id: string }) => e.id === 'binance');
      expect(binance.status).to.equal('connected');
      // Valued at the market now, which moves between the two calls.
      expect(binance.balance.totalUsd).to.be.closeTo(res!.body.balance.totalUsd, res!.body.balance.totalUsd * 0.05);
      expect(binance.balance.assets.map((a: { asset: string }) => a.asset)).to.deep.equal(['BTC', 'ETH', 'USD', 'USDT']);
    });

    for (const [behaviour, kind] of [['bad-key', 'authentication'], ['slow', 'timeout'], ['garbled', 'bad-response'], ['rate-limited', 'rate-limited']] as const) {
      it(`Test Connection with ${behaviour === 'bad-key' ? 'a key the exchange does not know' : `a ${behaviour} exchange`}: error (${kind}) with the exchange's message, recorded and read back`, async function () {
        const user = await account();
        const creds = behaviour === 'bad-key' ? { apiKey: `unknown-${unique()}-AAAA`, secretKey: b64('whatever-secret-1') } : keys('binance', behaviour);
        await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: creds });
        const res = await h.request('POST', '/api/exchanges/binance/test', { token: user.token });
        expect(res.status).to.equal(200);
        expect(res.body.status).to.equal('error');
        expect(res.body.balance).to.equal(null);
        expect(res.body.error.kind).to.equal(kind);
        expect(res.body.error.message).to.be.a('string').and.not.to.contain(creds.secretKey);
        const read = await h.request('GET', '/api/exchanges', { token: user.token });
        expect(read.body.exchanges.find((e: { id: string }) => e.id === 'binance')).to.deep.include({ status: 'error', error: res.body.error });
      });
    }

    it('Coinbase Exchange with its passphrase on its sandbox; Kraken read-only without a testnet', async function () {
      const user = await account();
      const coinbase = keys('coinbase');
      expect((await h.request('POST', '/api/exchanges/coinbase/config', { token: user.token, body: coinbase })).body).to.deep.include({ testnet: true });
      expect((await h.request('POST', '/api/exchanges/coinbase/test', { token: user.token })).body.status).to.equal('connected');
      const kraken = keys('kraken');
      const saved = await h.request('POST', '/api/exchanges/kraken/config', { token: user.token, body: kraken });
      expect(saved.body).to.deep.include({ testnet: false });
      expect((await h.request('POST', '/api/exchanges/kraken/test', { token: user.token })).body.status).to.equal('connected');
      const read = await h.request('GET', '/api/exchanges', { token: user.token });
      expect(read.body.exchanges.find((e: { id: string }) => e.id === 'kraken')).to.deep.include({ testnetAvailable: false, testnet: false, readOnly: true, status: 'connected' });
    });
  });

  describe('the rules', function () {
    it('Test Connection without keys is a 409; an unknown exchange a 404', async function () {
      const user = await account();
      const res = await h.request('POST', '/api/exchanges/binance/test', { token: user.token });
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.match(/No API keys are saved for Binance/);
      for (const path of ['/api/exchanges/ftx/config', '/api/exchanges/ftx/test', '/api/exchanges/ftx/mirror']) {
        const missing = await h.request('POST', path, { token: user.token, body: { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234', mirrorToTestnet: true } });
        expect(missing.status, path).to.equal(404);
      }
    });

    it('testnet on Kraken, a passphrase on Binance, none on Coinbase: 400 naming the field, nothing stored', async function () {
      const user = await account();
      const secrets = h.rt.infra.documents.collection<{ userId: string }>(EXCHANGE_SECRETS_COLLECTION);
      const cases: Array<[string, Record<string, unknown>, RegExp]> = [
        ['kraken', { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234', testnet: true }, /^testnet: Kraken has no testnet/],
        ['binance', { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234', passphrase: 'x' }, /^passphrase: Binance API keys have no passphrase/],
        ['coinbase', { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234' }, /^passphrase: Coinbase Pro \(Coinbase Exchange\) API keys need their passphrase/],
      ];
      for (const [exchange, body, message] of cases) {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', `/api/exchanges/${exchange}/config`, { token: user.token, body });
          expect(res.status, exchange).to.equal(400);
          expect(res.body.detail).to.match(message);
        });
        expect(events).to.deep.equal([]);
      }
      expect(await secrets.find({ where: { userId: user.userId } })).to.deep.equal([]);
    });

    it('Mirror to testnet needs a connected testnet account (409), then switches on and reads back', async function () {
      const user = await account();
      const refused = await h.request('POST', '/api/exchanges/binance/mirror', { token: user.token, body: { mirrorToTestnet: true } });
      expect(refused.status).to.equal(409);
      const kraken = await h.request('POST', '/api/exchanges/kraken/mirror', { token: user.token, body: { mirrorToTestnet: true } });
      expect(kraken.status).to.equal(409);
      expect(kraken.body.detail).to.match(/Kraken has no testnet/);
      const creds = keys('binance');
      await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: creds });
      await h.request('POST', '/api/exchanges/binance/test', { token: user.token });
      const on = await h.request('POST', '/api/exchanges/binance/mirror', { token: user.token, body: { mirrorToTestnet: true } });
      expect(on.status).to.equal(200);
      const read = await h.request('GET', '/api/exchanges', { token: user.token });
      expect(read.body.exchanges.find((e: { id: string }) => e.id === 'binance').mirrorToTestnet).to.equal(true);
    });

    it('API settings: keys stored as the exchange connections, paper on, real trading on only with the confirmation', async function () {
      const user = await account();
      const binance = keys('binance');
      const coinbase = keys('coinbase');
      const refused = await h.appendedBy(async () => {
        const res = await h.request('POST', '/api/settings/api', {
          token: user.token,
          body: { binanceKey: binance.apiKey, binanceSecret: binance.secretKey, coinbaseKey: '', coinbaseSecret: '', enablePaperTrading: true, enableRealTrading: true },
        });
        expect(res.status).to.equal(400);
        expect(res.body.detail).to.match(/explicit confirmation/);
      });
      expect(refused).to.deep.equal([]);
      const res = await h.request('POST', '/api/settings/api', {
        token: user.token,
        body: { binanceKey: binance.apiKey, binanceSecret: binance.secretKey, coinbaseKey: coinbase.apiKey, coinbaseSecret: coinbase.secretKey, coinbasePassphrase: coinbase.passphrase, enablePaperTrading: true, enableRealTrading: false },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.exchanges).to.deep.equal([
        { exchangeId: 'binance', keyLast4: 'K3Y9', testnet: true },
        { exchangeId: 'coinbase', keyLast4: 'K3Y9', testnet: true },
      ]);
      expect(res.body.tradingMode).to.deep.equal({ paperTrading: true, realTrading: false });
      expect((await h.request('POST', '/api/exchanges/coinbase/test', { token: user.token })).body.status).to.equal('connected');
      const on = await h.request('POST', '/api/settings/api', { token: user.token, body: { enableRealTrading: true, confirmRealTrading: true } });
      expect(on.body.tradingMode).to.deep.equal({ paperTrading: true, realTrading: true });
      expect((await h.request('GET', '/api/settings', { token: user.token })).body.tradingMode).to.deep.equal({ paperTrading: true, realTrading: true });
    });

    it("the spec's API settings without Coinbase's passphrase are stored; their test fails saying what is missing", async function () {
      const user = await account();
      const res = await h.request('POST', '/api/settings/api', { token: user.token, body: { coinbaseKey: 'spec-coinbase-key-1', coinbaseSecret: 'spec-coinbase-secret-1', enablePaperTrading: true, enableRealTrading: false } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const test = await h.request('POST', '/api/exchanges/coinbase/test', { token: user.token });
      expect(test.body.status).to.equal('error');
      expect(test.body.error.kind).to.equal('authentication');
      expect(test.body.error.message).to.match(/password/);
    });

    it('an Idempotency-Key replay of a save seals nothing and appends nothing', async function () {
      const user = await account();
      const creds = keys('binance');
      const key = unique();
      const first = await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: creds, headers: { 'idempotency-key': key } });
      const secrets = h.rt.infra.documents.collection<{ userId: string }>(EXCHANGE_SECRETS_COLLECTION);
      const events = await h.appendedBy(async () => {
        const again = await h.request('POST', '/api/exchanges/binance/config', { token: user.token, body: creds, headers: { 'idempotency-key': key } });
        expect(again.body).to.deep.equal(first.body);
      });
      expect(events).to.deep.equal([]);
      expect(await secrets.find({ where: { userId: user.userId } })).to.have.length(1);
    });
  });

  describe('bad input answers 4xx with a problem and appends nothing', function () {
    const bad: Array<[string, string, { body?: unknown; raw?: string }, number]> = [
      ['config: missing secret', '/api/exchanges/binance/config', { body: { apiKey: 'abcdefgh1234' } }, 400],
      ['config: wrong types', '/api/exchanges/binance/config', { body: { apiKey: 12345678, secretKey: true } }, 400],
      ['config: a key too short', '/api/exchanges/binance/config', { body: { apiKey: 'abc', secretKey: 'abcdefgh1234' } }, 400],
      ['config: a NUL character', '/api/exchanges/binance/config', { body: { apiKey: 'abcd\u0000efgh1234', secretKey: 'abcdefgh1234' } }, 400],
      ['config: a space inside', '/api/exchanges/binance/config', { body: { apiKey: 'abcd efgh1234', secretKey: 'abcdefgh1234' } }, 400],
      ['config: an unknown field', '/api/exchanges/binance/config', { body: { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234', balance: 12487.32 } }, 400],
      ['config: testnet not a boolean', '/api/exchanges/binance/config', { body: { apiKey: 'abcdefgh1234', secretKey: 'abcdefgh1234', testnet: 'yes' } }, 400],
      ['config: malformed JSON', '/api/exchanges/binance/config', { raw: '{"apiKey": "abcdefgh1234",' }, 400],
      ['config: __proto__', '/api/exchanges/binance/config', { raw: '{"apiKey":"abcdefgh1234","secretKey":"abcdefgh1234","__proto__":{"x":1}}' }, 400],
      ['config: no body', '/api/exchanges/binance/config', {}, 400],
      ['config: over 100 kB', '/api/exchanges/binance/config', { body: { apiKey: 'a'.repeat(120_000), secretKey: 'abcdefgh1234' } }, 413],
      ['test: a body', '/api/exchanges/binance/test', { body: { force: true } }, 400],
      ['mirror: missing field', '/api/exchanges/binance/mirror', { body: {} }, 400],
      ['mirror: a string', '/api/exchanges/binance/mirror', { body: { mirrorToTestnet: 'on' } }, 400],
      ['api settings: empty', '/api/settings/api', { body: {} }, 400],
      ['api settings: a key without its secret', '/api/settings/api', { body: { binanceKey: 'abcdefgh1234' } }, 400],
      ['api settings: a passphrase without the Coinbase keys', '/api/settings/api', { body: { coinbasePassphrase: 'abcdefgh1234' } }, 400],
      ['api settings: a number flag', '/api/settings/api', { body: { enablePaperTrading: 1 } }, 400],
      ['api settings: __proto__ nested', '/api/settings/api', { raw: '{"enablePaperTrading":true,"x":{"__proto__":{}}}' }, 400],
      ['notifications: empty', '/api/settings/notifications', { body: {} }, 400],
      ['notifications: unknown switch', '/api/settings/notifications', { body: { email: true } }, 400],
      ['notifications: a string', '/api/settings/notifications', { body: { botTrades: 'false' } }, 400],
    ];
    for (const [name, path, options, status] of bad) {
      it(name, async function () {
        const user = await account();
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', path, { token: user.token, ...options });
          expect(res.status, JSON.stringify(res.body)).to.equal(status);
          expect(res.headers.get('content-type')).to.contain('application/problem+json');
          expect(res.body.detail).to.be.a('string').and.not.be.empty;
        });
        expect(events).to.deep.equal([]);
      });
    }

    it('a query parameter on the reads is a 400', async function () {
      const user = await account();
      for (const path of ['/api/exchanges?x=1', '/api/exchanges/mirror-orders?limit=5', '/api/settings?all=1']) {
        expect((await h.request('GET', path, { token: user.token })).status, path).to.equal(400);
      }
    });
  });
});
