/**
 * The ccxt adapter against the local fake exchange (test/fake-exchange-server.ts), every path for each
 * exchange: a balance, a bad key, a timeout, a malformed answer, a rate limit; market orders on the
 * two testnets; never a sandbox where there is none. Nothing leaves the loopback.
 */
import { expect } from 'chai';
import type { ExchangeId } from '@papertrade/domain/exchanges/exchanges';
import { FakeExchangeServer, type FakeBehaviour, type FakeExchange } from '../../../test/fake-exchange-server';
import { CcxtExchangeGateway, cleanMessage } from './ccxt-exchange';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const exchanges: Array<{ id: ExchangeId; fake: FakeExchange; testnet: boolean; passphrase?: string }> = [
  { id: 'binance', fake: 'binance', testnet: true },
  { id: 'coinbase', fake: 'coinbase', testnet: true, passphrase: 'pass-phrase-1' },
  { id: 'kraken', fake: 'kraken', testnet: false },
];

describe('ccxt exchange gateway against the fake exchange', function () {
  this.timeout(20_000);
  let fake: FakeExchangeServer;
  let gateway: CcxtExchangeGateway;
  let n = 0;

  before(async function () {
    fake = await FakeExchangeServer.start();
    fake.slowMs = 2000;
    gateway = new CcxtExchangeGateway({ apiOrigin: fake.baseUrl, timeoutMs: 400 });
  });
  after(async () => fake.close());

  const account = (exchange: (typeof exchanges)[number], behaviour: FakeBehaviour = 'ok') => {
    n++;
    const credentials = { apiKey: `key-${exchange.id}-${behaviour}-${n}-WXYZ`, secret: b64(`secret-${exchange.id}-${n}-0123456789`), ...(exchange.passphrase ? { passphrase: exchange.passphrase } : {}) };
    fake.addAccount({ exchange: exchange.fake, ...credentials, balances: { BTC: 0.5, ETH: 2, USDT: 1000, USD: 250 }, behaviour });
    return credentials;
  };

  for (const exchange of exchanges) {
    describe(exchange.id, function () {
      it('fetches the balance (non-zero assets, by their common symbols)', async function () {
        const result = await gateway.fetchBalance(exchange.id, account(exchange), { testnet: exchange.testnet });
        expect(result.ok, JSON.stringify(result)).to.equal(true);
        if (!result.ok) return;
        const byAsset = Object.fromEntries(result.balances.map((b) => [b.asset, b.total]));
        expect(byAsset['BTC']).to.equal(0.5);
        expect(byAsset['ETH']).to.equal(2);
      });

      it('a bad key is an authentication error with the exchange\'s message', async function () {
        const result = await gateway.fetchBalance(exchange.id, { apiKey: 'unknown-key-1234', secret: b64('nope-nope-nope'), ...(exchange.passphrase ? { passphrase: 'x' } : {}) }, { testnet: exchange.testnet });
        expect(result).to.deep.include({ ok: false });
        if (result.ok) return;
        expect(result.error.kind).to.equal('authentication');
        expect(result.error.message).to.match(/Invalid API[- ]Key|EAPI:Invalid key/i);
      });

      it('a wrong secret (the signature does not match) is an authentication error too', async function () {
        const credentials = account(exchange);
        const result = await gateway.fetchBalance(exchange.id, { ...credentials, secret: b64('another-secret-000') }, { testnet: exchange.testnet });
        expect(result.ok ? 'ok' : result.error.kind).to.equal('authentication');
      });

      it('a timeout, a malformed answer and a rate limit are each told apart', async function () {
        const kinds: Record<string, string> = {};
        for (const behaviour of ['slow', 'garbled', 'rate-limited'] as const) {
          const credentials = account(exchange, behaviour);
          const result = await gateway.fetchBalance(exchange.id, credentials, { testnet: exchange.testnet });
          kinds[behaviour] = result.ok ? 'ok' : result.error.kind;
          if (!result.ok) {
            expect(result.error.message).not.to.contain(credentials.secret);
            expect(result.error.message).not.to.contain(credentials.apiKey);
            expect(result.error.message.length).to.be.at.most(300);
          }
        }
        expect(kinds).to.deep.equal({ slow: 'timeout', garbled: 'bad-response', 'rate-limited': 'rate-limited' });
      });
    });
  }

  describe('orders and testnets', function () {
  it('places market orders on the Binance and Coinbase testnets with the client order id, at the book\'s price', async function () {
    for (const exchange of exchanges.filter((e) => e.testnet)) {
      const credentials = account(exchange);
      const market = exchange.id === 'binance' ? 'BTC/USDT' : 'BTC/USD';
      const clientOrderId = '6f0b7f5e-6a55-4b8e-9d5e-2f1d1c0b9a01';
      const result = await gateway.createMarketOrder(exchange.id, credentials, { testnet: true }, { market, side: 'BUY', amount: 0.01, clientOrderId });
      expect(result.ok, JSON.stringify(result)).to.equal(true);
      if (!result.ok) continue;
      expect(result.price).to.equal(65032.5);
      expect(result.amount).to.equal(0.01);
      expect(fake.orders.at(-1)).to.deep.include({ exchange: exchange.fake, side: 'buy', amount: 0.01, clientOrderId });
    }
  });

  it('never switches to a sandbox an exchange does not have (Kraken testnet is refused before any request)', async function () {
    const before = fake.requests.length;
    const result = await gateway.fetchBalance('kraken', account(exchanges[2]!), { testnet: true });
    expect(result.ok ? 'ok' : result.error.message).to.equal('Kraken has no testnet');
    expect(fake.requests.length).to.equal(before);
  });

  });

  describe('what was asked of the fake (after the rest)', function () {
  it('every request went to the fake, on the paths each exchange documents', function () {
    const paths = new Set(fake.requests.map((r) => `${r.method} ${r.path}`));
    for (const p of ['GET /api/v3/exchangeInfo', 'GET /api/v3/account', 'POST /api/v3/order', 'GET /products', 'GET /accounts', 'POST /orders', 'GET /0/public/AssetPairs', 'POST /0/private/BalanceEx']) {
      expect(paths.has(p), p).to.equal(true);
    }
  });

  });

  it('cleans messages: credentials, hosts, query strings and control characters go, 300 characters at most', function () {
    const message = cleanMessage('binance GET http://x/api/v3/account?timestamp=1&signature=abc key-1234 s3cr3t-value\nnext', { apiKey: 'key-1234', secret: 's3cr3t-value' });
    expect(message).to.equal('binance GET /api/v3/account?… [redacted] [redacted] next');
    expect(cleanMessage('x'.repeat(1000))).to.have.length(300);
  });
});
