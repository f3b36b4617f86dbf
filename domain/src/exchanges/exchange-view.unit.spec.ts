/**
 * The Exchanges tab's read models as pure evolves: one connection document per user and exchange
 * (saved keys start disconnected, a test of the keys in use sets the status and balances, a test of
 * replaced keys is ignored, the mirror switch only on a testnet), one mirror-order document per
 * mirrored trade (requested, then filled with the testnet's price beside the paper one, or failed),
 * and the answers built from them: every exchange of the table, the caller's connection on it, no
 * secret, the newest mirror order first. Also the request contract's empty passphrase.
 */
import { expect } from 'chai';
import type { DomainEvent } from '../shared/decider';
import { exchangeConfigRequestSchema, exchangeName, valueBalances } from './contracts';
import { exchangeIdSchema } from './exchanges';
import type { ExchangeEvent } from './exchange';
import {
  EXCHANGE_CONNECTIONS_PROJECTION,
  evolveExchangeConnectionView,
  evolveMirrorOrderView,
  exchangeConnectionDocumentIds,
  exchangeConnectionsResponse,
  MIRROR_ORDERS_PROJECTION,
  mirrorOrderDocumentIds,
  mirrorOrdersResponse,
  type ExchangeConnectionView,
  type MirrorOrderView,
} from './exchange-view';

const saved = (secretRef: string, testnet = true, exchangeId: 'binance' | 'kraken' | 'coinbase' = 'binance'): ExchangeEvent => ({
  type: 'ExchangeCredentialsSaved',
  data: { userId: 'u1', exchangeId, secretRef, keyLast4: secretRef.slice(-4), testnet, savedAt: '2026-05-01T10:00:00.000Z' },
});
const tested = (secretRef: string, status: 'connected' | 'error', testedAt = '2026-05-01T10:01:00.000Z'): ExchangeEvent => ({
  type: 'ExchangeConnectionTested',
  data: {
    userId: 'u1',
    exchangeId: 'binance',
    secretRef,
    testnet: true,
    status,
    balances: status === 'connected' ? [{ asset: 'BTC', free: 0.5, total: 1 }, { asset: 'USDT', free: 100, total: 100 }] : [],
    error: status === 'error' ? { kind: 'authentication', message: 'Invalid API-key' } : null,
    testedAt,
  },
});
const mirror = (mirrorToTestnet: boolean, exchangeId: 'binance' | 'kraken' = 'binance'): ExchangeEvent => ({ type: 'ExchangeMirrorChanged', data: { userId: 'u1', exchangeId, mirrorToTestnet, changedAt: '2026-05-01T10:02:00.000Z' } });
const requested = (tradeId: string, requestedAt: string, paperPrice = 50_000): ExchangeEvent => ({
  type: 'MirrorOrderRequested',
  data: { userId: 'u1', exchangeId: 'binance', requestedAt, tradeId, market: 'BTC/USDT', side: 'BUY', amount: 0.01, paperPrice, clientOrderId: `c-${tradeId}`, paperPlacedAt: requestedAt },
});
const filled = (tradeId: string, price: number): ExchangeEvent => ({
  type: 'MirrorOrderFilled',
  data: { userId: 'u1', exchangeId: 'binance', tradeId, orderId: 'o1', price, amount: 0.0099, cost: price * 0.0099, fee: null, filledAt: '2026-05-01T11:00:01.000Z' },
});
const failed = (tradeId: string): ExchangeEvent => ({ type: 'MirrorOrderFailed', data: { userId: 'u1', exchangeId: 'binance', tradeId, error: { kind: 'timeout', message: 'no answer' }, failedAt: '2026-05-01T11:00:02.000Z' } });
const other: DomainEvent = { type: 'SimulatedTradePlaced', data: { userId: 'u1', exchangeId: 'binance', tradeId: 't1' } };

const connection = (...events: DomainEvent[]) => events.reduce<ExchangeConnectionView | null>(evolveExchangeConnectionView, null);
const order = (...events: DomainEvent[]) => events.reduce<MirrorOrderView | null>(evolveMirrorOrderView, null);

describe('exchange read models', function () {
  it('their names: exchange-connections and mirror-orders', function () {
    expect([EXCHANGE_CONNECTIONS_PROJECTION, MIRROR_ORDERS_PROJECTION]).to.deep.equal(['exchange-connections', 'mirror-orders']);
  });

  it('documents: a connection per user and exchange, a mirror order per user, exchange and trade; other events touch neither', function () {
    for (const event of [saved('ref-aaaa'), tested('ref-aaaa', 'connected'), mirror(true)]) {
      expect(exchangeConnectionDocumentIds(event), event.type).to.deep.equal(['u1:binance']);
      expect(mirrorOrderDocumentIds(event), event.type).to.deep.equal([]);
    }
    for (const event of [requested('t1', '2026-05-01T11:00:00.000Z'), filled('t1', 50_100), failed('t1')]) {
      expect(mirrorOrderDocumentIds(event), event.type).to.deep.equal(['u1:binance:t1']);
      expect(exchangeConnectionDocumentIds(event), event.type).to.deep.equal([]);
    }
    expect(exchangeConnectionDocumentIds(other)).to.deep.equal([]);
    expect(mirrorOrderDocumentIds(other)).to.deep.equal([]);
    const doc = connection(saved('ref-aaaa'));
    expect(evolveExchangeConnectionView(doc, other)).to.equal(doc);
    expect(evolveExchangeConnectionView(doc, requested('t1', '2026-05-01T11:00:00.000Z'))).to.equal(doc);
    const placed = order(requested('t1', '2026-05-01T11:00:00.000Z'));
    expect(evolveMirrorOrderView(placed, other)).to.equal(placed);
    expect(evolveMirrorOrderView(placed, mirror(true))).to.equal(placed);
  });

  it('saved keys: disconnected and untested until a test, the key shown by its last four, no secret', function () {
    expect(connection(saved('ref-abcd'))).to.deep.equal({
      userId: 'u1',
      exchangeId: 'binance',
      keyLast4: 'abcd',
      testnet: true,
      status: 'disconnected',
      lastTestedAt: null,
      error: null,
      balances: null,
      mirrorToTestnet: false,
      secretRef: 'ref-abcd',
    });
  });

  it('a test of the keys in use sets the status, the time and the balances (none on an error); a test of keys since replaced changes nothing', function () {
    const ok = connection(saved('ref-abcd'), tested('ref-abcd', 'connected'));
    expect(ok).to.deep.include({ status: 'connected', lastTestedAt: '2026-05-01T10:01:00.000Z', error: null });
    expect(ok!.balances).to.deep.equal([{ asset: 'BTC', free: 0.5, total: 1 }, { asset: 'USDT', free: 100, total: 100 }]);
    const bad = connection(saved('ref-abcd'), tested('ref-abcd', 'connected'), tested('ref-abcd', 'error', '2026-05-01T10:05:00.000Z'));
    expect(bad).to.deep.include({ status: 'error', lastTestedAt: '2026-05-01T10:05:00.000Z', balances: null, error: { kind: 'authentication', message: 'Invalid API-key' } });
    const replaced = connection(saved('ref-old1'), saved('ref-new2'));
    expect(evolveExchangeConnectionView(replaced, tested('ref-old1', 'connected'))).to.equal(replaced);
    expect(connection(tested('ref-abcd', 'connected')), 'no keys saved: no document').to.equal(null);
  });

  it('the mirror switch: kept when new testnet keys are saved, off with live keys; a switch without keys makes no document', function () {
    const on = connection(saved('ref-abcd'), mirror(true));
    expect(on!.mirrorToTestnet).to.equal(true);
    expect(evolveExchangeConnectionView(on, saved('ref-efgh'))!.mirrorToTestnet, 'new testnet keys').to.equal(true);
    expect(evolveExchangeConnectionView(on, saved('ref-efgh', false))!.mirrorToTestnet, 'live keys').to.equal(false);
    expect(evolveExchangeConnectionView(on, mirror(false))!.mirrorToTestnet).to.equal(false);
    expect(connection(mirror(true))).to.equal(null);
  });

  it('a mirror order: requested with the paper fill, then filled with the testnet price and the difference in percent (4 places), or failed with its error', function () {
    const placed = order(requested('t1', '2026-05-01T11:00:00.000Z'));
    expect(placed).to.deep.equal({
      userId: 'u1',
      tradeId: 't1',
      exchangeId: 'binance',
      market: 'BTC/USDT',
      side: 'BUY',
      amount: 0.01,
      paperPrice: 50_000,
      status: 'requested',
      testnetPrice: null,
      testnetAmount: null,
      differencePercent: null,
      error: null,
      requestedAt: '2026-05-01T11:00:00.000Z',
      requestedAtMs: Date.UTC(2026, 4, 1, 11),
      updatedAt: '2026-05-01T11:00:00.000Z',
    });
    // 50,123.45 against 50,000: +0.2469 %.
    expect(evolveMirrorOrderView(placed, filled('t1', 50_123.45))).to.deep.include({ status: 'filled', testnetPrice: 50_123.45, testnetAmount: 0.0099, differencePercent: 0.2469, updatedAt: '2026-05-01T11:00:01.000Z' });
    expect(evolveMirrorOrderView(placed, filled('t1', 49_900))!.differencePercent, 'below the paper price: negative').to.equal(-0.2);
    expect(evolveMirrorOrderView(order(requested('t2', '2026-05-01T11:00:00.000Z', 0)), filled('t2', 10))!.differencePercent, 'no paper price: no difference').to.equal(null);
    expect(evolveMirrorOrderView(placed, failed('t1'))).to.deep.include({ status: 'failed', error: { kind: 'timeout', message: 'no answer' }, updatedAt: '2026-05-01T11:00:02.000Z', testnetPrice: null });
    expect(order(filled('t1', 1)), 'a fill without its request: no document').to.equal(null);
    expect(order(failed('t1'))).to.equal(null);
  });

  it('GET /api/exchanges: every exchange of the table in its order, the caller\'s connection on it, testnet on by default where there is one, the key masked, never the secret', function () {
    const doc = connection(saved('ref-abcd'), tested('ref-abcd', 'connected'), mirror(true))!;
    const answer = exchangeConnectionsResponse([doc], (symbol) => (symbol === 'BTC' ? 60_000 : undefined));
    expect(answer.map((e) => e.id)).to.deep.equal(['binance', 'coinbase', 'kraken']);
    expect(answer[0]).to.deep.equal({
      id: 'binance',
      name: 'Binance',
      feePercent: 0.1,
      fees: 0.1,
      testnetAvailable: true,
      needsPassphrase: false,
      status: 'connected',
      configured: true,
      keyLast4: 'abcd',
      apiKey: '••••abcd',
      secretKey: null,
      testnet: true,
      readOnly: false,
      mirrorToTestnet: true,
      lastTestedAt: '2026-05-01T10:01:00.000Z',
      error: null,
      balance: { totalUsd: 60_100, allocatedPercent: 99.83, assets: [{ asset: 'BTC', free: 0.5, total: 1, usdValue: 60_000 }, { asset: 'USDT', free: 100, total: 100, usdValue: 100 }], unpriced: [] },
    });
    expect(answer[1]).to.deep.include({ id: 'coinbase', name: 'Coinbase Pro', feePercent: 0.5, needsPassphrase: true, status: 'disconnected', configured: false, keyLast4: null, apiKey: null, testnet: true, readOnly: false, mirrorToTestnet: false, lastTestedAt: null, error: null, balance: null });
    expect(answer[2]).to.deep.include({ id: 'kraken', testnetAvailable: false, testnet: false, readOnly: true });
    const live = connection(saved('ref-wxyz', false))!;
    expect(exchangeConnectionsResponse([live], () => undefined)[0]).to.deep.include({ testnet: false, configured: true, status: 'disconnected', balance: null });
  });

  it('GET /api/exchanges/mirror-orders: newest first, without the owner or the sort key', function () {
    const docs = [order(requested('old', '2026-05-01T09:00:00.000Z'))!, order(requested('new', '2026-05-02T09:00:00.000Z'))!, order(requested('mid', '2026-05-01T12:00:00.000Z'))!];
    const answer = mirrorOrdersResponse(docs);
    expect(answer.map((o) => o.tradeId)).to.deep.equal(['new', 'mid', 'old']);
    expect(answer[0]).to.not.have.any.keys('userId', 'requestedAtMs');
    expect(docs.map((d) => d.tradeId), 'the documents left as they were').to.deep.equal(['old', 'new', 'mid']);
  });

  it('the request: an empty passphrase counts as none, a short one is refused; names by id', function () {
    const body = { apiKey: 'key-12345678', secretKey: 'secret-12345678' };
    expect(exchangeConfigRequestSchema.parse({ ...body, passphrase: '' }).passphrase).to.equal(undefined);
    expect(exchangeConfigRequestSchema.parse({ ...body, passphrase: 'p' })).to.deep.equal({ ...body, passphrase: 'p' });
    expect(exchangeConfigRequestSchema.safeParse({ ...body, passphrase: ' ' }).success).to.equal(false);
    expect([exchangeName('binance'), exchangeName('coinbase'), exchangeName('kraken')]).to.deep.equal(['Binance', 'Coinbase Pro', 'Kraken']);
    expect(valueBalances([{ asset: 'DOGE', free: 1, total: 1 }], () => undefined)).to.deep.equal({ totalUsd: 0, allocatedPercent: 0, assets: [{ asset: 'DOGE', free: 1, total: 1, usdValue: null }], unpriced: ['DOGE'] });
  });

  it('an unknown exchange is refused naming it and the known ones', function () {
    const result = exchangeIdSchema.safeParse('ftx');
    expect(result.success).to.equal(false);
    expect(result.error!.issues.map((i) => i.message)).to.deep.equal(['unknown exchange "ftx" (known: binance, coinbase, kraken)']);
  });
});
