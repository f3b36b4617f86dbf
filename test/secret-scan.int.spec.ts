/**
 * "A scan of the event store and the logs finds no secret" (issue 21): the exchange flows run with
 * known API keys, secrets and passphrases (saving them by both routes, a new save, connection tests
 * that succeed and fail, the testnet mirror filling an order, the audit reading the streams), with
 * the logs on and captured; then every event of every stream (readAll), every read-model document,
 * every answer and every log line is searched for each credential and its base64 and hex encodings.
 * Only the sealed records of the private secrets collection may hold them, encrypted.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { portfolioStreamId } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { EXCHANGE_SECRETS_COLLECTION } from '@papertrade/platform/secrets/secret-vault';
import { projections } from '@papertrade/projectors/projections';
import { TestnetMirror } from '@papertrade/workers/testnet-mirror';
import { startHarness, type Harness } from './api-harness';
import { FakeExchangeServer } from './fake-exchange-server';
import { waitUntil } from './wait';

const encodings = (secret: string) => [secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), Buffer.from(secret).toString('hex')];

describe('no exchange secret in the event store, the read models, the answers or the logs', function () {
  this.timeout(180_000);
  let h: Harness;
  let fake: FakeExchangeServer;
  const logs: string[] = [];
  const answers: string[] = [];
  const secrets: string[] = [];
  let restore: () => void = () => undefined;

  before(async function () {
    // Every line this process writes while the flows run (the app's JSON logs with LOG=on, ccxt's, anything).
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const capture = (write: typeof out) =>
      ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        logs.push(text);
        // The app's own JSON lines are kept out of the test output; everything else passes.
        return text.startsWith('{"time"') ? true : (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof out;
    process.stdout.write = capture(out);
    process.stderr.write = capture(err);
    restore = () => {
      process.stdout.write = out;
      process.stderr.write = err;
    };
    fake = await FakeExchangeServer.start();
    fake.slowMs = 2000;
    h = await startHarness({ LOG: 'on', EXCHANGE_API_URL: fake.baseUrl, EXCHANGE_TIMEOUT_MS: '500' });
  });
  after(async function () {
    restore();
    await h?.stop();
    await fake?.close();
  });

  it('runs the exchange flows with known credentials, then finds none of them anywhere but sealed', async function () {
    const t = randomUUID().slice(0, 8);
    const email = `scan.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `scan_${t}` });
    const admin = await h.admin();
    await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    await h.projector.caughtUp();
    const token = await h.login(email, 'secret1');
    const record = (res: { body: unknown }) => answers.push(JSON.stringify(res.body));
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await h.request(method, path, { token, ...(body !== undefined ? { body } : {}) });
      record(res);
      return res;
    };

    const binance = { apiKey: `SCANbinanceKEY${t}7q`, secretKey: `SCANbinanceSECRET${t}x9` };
    const binance2 = { apiKey: `SCANbinanceKEY2${t}7q`, secretKey: `SCANbinanceSECRET2${t}x9` };
    const coinbase = { apiKey: `SCANcoinbaseKEY${t}`, secretKey: Buffer.from(`SCANcoinbaseSECRET${t}`).toString('base64'), passphrase: `SCANpassphrase${t}` };
    const kraken = { apiKey: `SCANkrakenKEY${t}`, secretKey: Buffer.from(`SCANkrakenSECRET${t}`).toString('base64') };
    const rateLimited = { apiKey: `SCANlimitedKEY${t}`, secretKey: `SCANlimitedSECRET${t}` };
    const slow = { apiKey: `SCANslowKEY${t}`, secretKey: `SCANslowSECRET${t}` };
    secrets.push(
      ...[binance, binance2, coinbase, kraken, rateLimited, slow].flatMap((c) => [c.apiKey, c.secretKey]),
      coinbase.passphrase,
      Buffer.from(`SCANcoinbaseSECRET${t}`).toString('utf8'),
      Buffer.from(`SCANkrakenSECRET${t}`).toString('utf8'),
    );
    fake.addAccount({ exchange: 'binance', apiKey: binance.apiKey, secret: binance.secretKey, balances: { BTC: 1, USDT: 5000 } });
    fake.addAccount({ exchange: 'binance', apiKey: binance2.apiKey, secret: binance2.secretKey, balances: { BTC: 1, USDT: 5000 } });
    fake.addAccount({ exchange: 'coinbase', apiKey: coinbase.apiKey, secret: coinbase.secretKey, passphrase: coinbase.passphrase, balances: { ETH: 2, USD: 100 } });
    fake.addAccount({ exchange: 'kraken', apiKey: kraken.apiKey, secret: kraken.secretKey, balances: { BTC: 0.5 } });
    fake.addAccount({ exchange: 'binance', apiKey: rateLimited.apiKey, secret: rateLimited.secretKey, balances: {}, behaviour: 'rate-limited' });
    fake.addAccount({ exchange: 'binance', apiKey: slow.apiKey, secret: slow.secretKey, balances: {}, behaviour: 'slow' });

    // Failures first (their messages are stored), then a good connection, by both routes.
    for (const failing of [rateLimited, slow, { apiKey: `SCANunknownKEY${t}`, secretKey: `SCANunknownSECRET${t}` }]) {
      secrets.push(failing.apiKey, failing.secretKey);
      expect((await call('POST', '/api/exchanges/binance/config', failing)).status).to.equal(200);
      expect((await call('POST', '/api/exchanges/binance/test')).body.status).to.equal('error');
    }
    expect((await call('POST', '/api/settings/api', { binanceKey: binance.apiKey, binanceSecret: binance.secretKey, coinbaseKey: coinbase.apiKey, coinbaseSecret: coinbase.secretKey, coinbasePassphrase: coinbase.passphrase, enablePaperTrading: true })).status).to.equal(200);
    expect((await call('POST', '/api/exchanges/binance/test')).body.status).to.equal('connected');
    expect((await call('POST', '/api/exchanges/binance/config', binance2)).status).to.equal(200);
    expect((await call('POST', '/api/exchanges/binance/test')).body.status).to.equal('connected');
    expect((await call('POST', '/api/exchanges/coinbase/test')).body.status).to.equal('connected');
    expect((await call('POST', '/api/exchanges/kraken/config', kraken)).status).to.equal(200);
    expect((await call('POST', '/api/exchanges/kraken/test')).body.status).to.equal('connected');
    expect((await call('POST', '/api/exchanges/binance/mirror', { mirrorToTestnet: true })).status).to.equal(200);
    // A refused request with a secret in it: the problem answer must not echo it back.
    const refused = await call('POST', '/api/exchanges/binance/config', { apiKey: binance.apiKey, secretKey: binance.secretKey, passphrase: 'SCANwrongPASS' });
    expect(refused.status).to.equal(400);

    // The testnet mirror: a bot trade mirrored to Binance's testnet.
    await h.projector.caughtUp();
    const { eventStore, documents, leases, readModels } = h.rt.infra;
    const handler = new CommandHandler(eventStore, () => new Date());
    const mirror = new TestnetMirror({ eventStore, documents, leases, readModels, handler, secrets: h.rt.exchangeSecrets, gateway: h.rt.exchangeGateway, clock: () => new Date(), logger: h.rt.logger });
    await mirror.start();
    try {
      await handler.handle(
        portfolioDecider,
        portfolioStreamId(userId),
        {
          type: 'PlaceSimulatedTrade',
          data: { userId, tradeId: randomUUID(), symbol: 'BTC', side: 'BUY', amount: 0.01, price: 64_000, source: { kind: 'SIGNAL', eventId: randomUUID(), signalId: randomUUID(), signalType: 'BUY', candleTime: new Date().toISOString() } },
          metadata: { now: new Date().toISOString() },
        },
        { actor: 'trading-bot', correlationId: randomUUID() },
      );
      await waitUntil(async () => (await call('GET', '/api/exchanges/mirror-orders')).body.orders?.[0]?.status === 'filled', { timeoutMs: 20_000, message: 'the mirrored order' });
    } finally {
      await mirror.stop();
    }
    for (const path of ['/api/exchanges', '/api/settings']) expect((await call('GET', path)).status).to.equal(200);
    for (const exchange of ['binance', 'coinbase', 'kraken']) {
      const audit = await h.request('GET', `/api/audit/streams/${encodeURIComponent(`exchange-${userId}-${exchange}`)}`, { token: admin.token });
      expect(audit.status, JSON.stringify(audit.body)).to.equal(200);
      record(audit);
    }
    await h.projector.caughtUp();

    // The scan.
    const events = await eventStore.readAll({ limit: 100_000 });
    const eventText = JSON.stringify(events.map((e) => ({ stream: e.streamId, type: e.type, data: e.data, metadata: e.metadata })));
    expect(eventText).to.contain('ExchangeCredentialsSaved');
    expect(eventText).to.contain('MirrorOrderFilled');
    const documentText: string[] = [];
    for (const p of projections) documentText.push(JSON.stringify(await (await readModels.collection(p.name)).find({})));
    const logText = logs.join('');
    expect(logText).to.contain('exchange keys saved');
    const sealed = JSON.stringify(await documents.collection(EXCHANGE_SECRETS_COLLECTION).find({}));
    const places: Array<[string, string]> = [['the event store', eventText], ['the read models', documentText.join('\n')], ['the answers', answers.join('\n')], ['the logs', logText], ['the sealed records', sealed]];
    const found: string[] = [];
    for (const secret of secrets) {
      for (const encoded of encodings(secret)) {
        for (const [where, text] of places) if (text.includes(encoded)) found.push(`${JSON.stringify(encoded)} in ${where}`);
      }
    }
    expect(found).to.deep.equal([]);
  });
});
