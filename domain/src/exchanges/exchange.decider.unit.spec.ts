/** The exchange connection decider: keys saved by reference, tests, the mirror's rules, mirrored orders. */
import { expect } from 'chai';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, ValidationError } from '../shared/errors';
import type { ExchangeEvent } from './exchange';
import { exchangeDecider, mirrorsNow } from './exchange.decider';
import { fold } from '../shared/decider';
import { EXCHANGES, exchangeFeeRate } from './exchanges';
import { valueBalances } from './contracts';
import { meta, mirror, NOW, saved, tested } from './exchange-events.fixtures';

const spec = specFor(exchangeDecider);
const mirrorOn = mirror(true);
const intent = { tradeId: 't1', market: 'BTC/USDT', side: 'BUY' as const, amount: 0.01, paperPrice: 65000, clientOrderId: 'c1', paperPlacedAt: NOW };

describe('exchange decider', function () {
  it('saves credentials as a reference and the key\'s last four characters', function () {
    spec
      .given([])
      .when({ type: 'SaveExchangeCredentials', data: { userId: 'u1', exchangeId: 'binance', secretRef: 'r1', keyLast4: 'ABCD', testnet: true }, ...meta })
      .then([saved('r1')]);
  });

  it('refuses a testnet on an exchange without one (Kraken), naming the field', function () {
    spec
      .given([])
      .when({ type: 'SaveExchangeCredentials', data: { userId: 'u1', exchangeId: 'kraken', secretRef: 'r1', keyLast4: 'ABCD', testnet: true }, ...meta })
      .thenThrows(ValidationError, /^testnet: Kraken has no testnet/);
  });

  it('records a test of the current keys, and drops one of keys replaced meanwhile', function () {
    const ok = { ok: true as const, balances: [{ asset: 'BTC', free: 1, total: 1 }] };
    spec.given([saved('r1')]).when({ type: 'RecordConnectionTest', data: { userId: 'u1', exchangeId: 'binance', secretRef: 'r1', result: ok }, ...meta }).then([tested('r1')]);
    spec.given([saved('r1'), saved('r2')]).when({ type: 'RecordConnectionTest', data: { userId: 'u1', exchangeId: 'binance', secretRef: 'r1', result: ok }, ...meta }).then([]);
    const failed = { ok: false as const, error: { kind: 'authentication' as const, message: 'Invalid API-key' } };
    spec.given([saved('r1')]).when({ type: 'RecordConnectionTest', data: { userId: 'u1', exchangeId: 'binance', secretRef: 'r1', result: failed }, ...meta }).then([tested('r1', false)]);
  });

  it('new keys are untested: the connection is disconnected until the next test', function () {
    expect(fold(exchangeDecider, [saved('r1'), tested('r1'), saved('r2')]).status).to.equal('disconnected');
    expect(fold(exchangeDecider, [saved('r1'), tested('r1')]).status).to.equal('connected');
    expect(fold(exchangeDecider, [saved('r1'), tested('r1', false)]).status).to.equal('error');
  });

  it('mirror on needs a connected testnet account (409 otherwise); off always', function () {
    const on = { type: 'ChangeExchangeMirror' as const, data: { userId: 'u1', exchangeId: 'binance' as const, mirrorToTestnet: true }, ...meta };
    spec.given([]).when(on).thenThrows(IllegalStateError, /needs Binance testnet API keys/);
    spec.given([saved('r1')]).when(on).thenThrows(IllegalStateError, /test the Binance connection first/);
    spec.given([saved('r1'), tested('r1', false)]).when(on).thenThrows(IllegalStateError, /connected testnet account/);
    spec.given([saved('r1', false), tested('r1')]).when(on).thenThrows(IllegalStateError, /needs Binance testnet API keys/);
    spec.given([saved('r1'), tested('r1')]).when(on).then([mirrorOn]);
    spec.given([saved('r1'), tested('r1'), mirrorOn]).when(on).then([]);
    spec
      .given([saved('r1'), tested('r1'), mirrorOn])
      .when({ ...on, data: { ...on.data, mirrorToTestnet: false } })
      .then([{ type: 'ExchangeMirrorChanged', data: { userId: 'u1', exchangeId: 'binance', mirrorToTestnet: false, changedAt: NOW } }]);
  });

  it('mirrors a bot trade only while the mirror is on and the testnet connected', function () {
    const request = { type: 'RequestMirrorOrder' as const, data: { userId: 'u1', exchangeId: 'binance' as const, ...intent }, ...meta };
    const requested: ExchangeEvent = { type: 'MirrorOrderRequested', data: { userId: 'u1', exchangeId: 'binance', ...intent, requestedAt: NOW } };
    spec.given([saved('r1'), tested('r1'), mirrorOn]).when(request).then([requested]);
    spec.given([saved('r1'), tested('r1')]).when(request).then([]);
    spec.given([saved('r1'), tested('r1'), mirrorOn, tested('r1', false)]).when(request).then([]);
    // New keys switch the connection to untested: nothing is mirrored until they pass a test.
    spec.given([saved('r1'), tested('r1'), mirrorOn, saved('r2')]).when(request).then([]);
    // A trade placed before the mirror was switched on (a replay of history) is not mirrored.
    spec.given([saved('r1'), tested('r1'), mirrorOn]).when({ ...request, data: { ...request.data, paperPlacedAt: '2026-03-04T05:00:00.000Z' } }).then([]);
    expect(mirrorsNow(fold(exchangeDecider, [saved('r1'), tested('r1'), mirrorOn, saved('r2', false)]))).to.equal(false);
  });

  it('records the testnet fill or the failure', function () {
    const fill = { ok: true as const, orderId: 'o1', price: 65010, amount: 0.01, cost: 650.1, fee: { cost: 0.65, currency: 'USDT' } };
    spec
      .given([])
      .when({ type: 'RecordMirrorOutcome', data: { userId: 'u1', exchangeId: 'binance', tradeId: 't1', outcome: fill }, ...meta })
      .then([{ type: 'MirrorOrderFilled', data: { userId: 'u1', exchangeId: 'binance', tradeId: 't1', orderId: 'o1', price: 65010, amount: 0.01, cost: 650.1, fee: { cost: 0.65, currency: 'USDT' }, filledAt: NOW } }]);
    const error = { kind: 'rate-limited' as const, message: 'Too many requests' };
    spec
      .given([])
      .when({ type: 'RecordMirrorOutcome', data: { userId: 'u1', exchangeId: 'binance', tradeId: 't1', outcome: { ok: false, error } }, ...meta })
      .then([{ type: 'MirrorOrderFailed', data: { userId: 'u1', exchangeId: 'binance', tradeId: 't1', error, failedAt: NOW } }]);
  });
});

describe('exchanges table', function () {
  it('has the spec\'s fees (0.1 / 0.5 / 0.26 percent) and a testnet for Binance and Coinbase Exchange only', function () {
    expect(EXCHANGES.map((e) => [e.id, e.feePercent, e.testnet, e.ccxtClass])).to.deep.equal([
      ['binance', 0.1, true, 'binance'],
      ['coinbase', 0.5, true, 'coinbaseexchange'],
      ['kraken', 0.26, false, 'kraken'],
    ]);
    expect(exchangeFeeRate('kraken')).to.be.closeTo(0.0026, 1e-12);
  });
});

describe('valueBalances', function () {
  it('values coins at the market, cash at 1, and the allocation as the coins\' share', function () {
    const prices: Record<string, number> = { BTC: 60000, ETH: 3000 };
    const balance = valueBalances(
      [
        { asset: 'XXBT', free: 0.1, total: 0.1 },
        { asset: 'ETH', free: 1, total: 2 },
        { asset: 'USDT', free: 6000, total: 6000 },
        { asset: 'FOO', free: 5, total: 5 },
      ],
      (s) => prices[s],
    );
    expect(balance.totalUsd).to.equal(18000);
    expect(balance.allocatedPercent).to.equal(66.67);
    expect(balance.unpriced).to.deep.equal(['FOO']);
    expect(balance.assets.map((a) => a.usdValue)).to.deep.equal([6000, 6000, 6000, null]);
    expect(valueBalances([], () => undefined)).to.deep.equal({ totalUsd: 0, allocatedPercent: 0, assets: [], unpriced: [] });
  });
});
