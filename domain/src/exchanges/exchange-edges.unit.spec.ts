/**
 * The exchange connection at its edges: a new connection is disconnected, without keys or mirror (so
 * switching a mirror off that was never on appends nothing); a testnet refused on an exchange without
 * one names the field; a test result before any keys were saved is dropped; switching the mirror off
 * never asks for a connected testnet; switching it on where the exchange has no testnet says so first;
 * new testnet keys keep a mirror that was on (and since when), live keys end it; a test of keys
 * replaced meanwhile, or of no keys at all, leaves the stream's status as it was; only testnet keys
 * are mirrored to.
 */
import { expect } from 'chai';
import { fold } from '../shared/decider';
import { specFor } from '../shared/decider-specification';
import { IllegalStateError, ValidationError } from '../shared/errors';
import { v5 as uuidv5 } from 'uuid';
import { evolveExchange, exchangeStreamId, initialExchangeState, keyLast4, mirrorClientOrderId, type ExchangeEvent, type ExchangeState } from './exchange';

/** The namespace of mirrored orders' client ids (exchange.ts): changing it would resend every mirrored trade as new. */
const MIRROR_NAMESPACE = '8c0e3f9a-2d51-4c1e-9a6b-3f4e5d6c7b8a';
import { exchangeDecider, mirrorsNow, saveExchangeCredentials } from './exchange.decider';
import { meta, mirror, NOW, saved, tested } from './exchange-events.fixtures';

const spec = specFor(exchangeDecider);
const LATER = '2026-03-05T05:06:07.000Z';
const change = (on: boolean, exchangeId: 'binance' | 'kraken' = 'binance') => ({ type: 'ChangeExchangeMirror' as const, data: { userId: 'u1', exchangeId, mirrorToTestnet: on }, ...meta });

describe('exchange connection at its edges', function () {
  it('a new connection: no keys, disconnected, no mirror; switching off a mirror never on appends nothing', function () {
    expect(initialExchangeState()).to.deep.equal({ credentials: null, status: 'disconnected', mirrorToTestnet: false, mirrorSince: null });
    spec.given([]).when(change(false)).then([]);
  });

  it('a testnet refused where the exchange has none names the testnet field', function () {
    let thrown: unknown = null;
    try {
      saveExchangeCredentials({ type: 'SaveExchangeCredentials', data: { userId: 'u1', exchangeId: 'kraken', secretRef: 'r1', keyLast4: 'ABCD', testnet: true }, ...meta });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(ValidationError);
    expect((thrown as ValidationError).extra).to.deep.equal({ fields: ['testnet'] });
  });

  it('a test result before any keys were saved is dropped', function () {
    spec
      .given([])
      .when({ type: 'RecordConnectionTest', data: { userId: 'u1', exchangeId: 'binance', secretRef: 'r1', result: { ok: true, balances: [] } }, ...meta })
      .then([]);
  });

  it('switching the mirror off never needs a connected testnet: new untested keys, or keys that failed their test', function () {
    const off: ExchangeEvent = mirror(false);
    spec.given([saved('r1'), tested('r1'), mirror(true), saved('r2')]).when(change(false)).then([off]);
    spec.given([saved('r1'), tested('r1'), mirror(true), tested('r1', false)]).when(change(false)).then([off]);
  });

  it('switching the mirror on where the exchange has no testnet (Kraken) says that first, even with testnet keys recorded', function () {
    spec.given([saved('r1', true, 'kraken'), tested('r1', true, 'kraken')]).when(change(true, 'kraken')).thenThrows(IllegalStateError, /^Mirror to testnet: Kraken has no testnet/);
  });

  it('new testnet keys keep a mirror that was on, and since when; live keys end it', function () {
    const on = fold(exchangeDecider, [saved('r1'), tested('r1'), mirror(true)]);
    expect(evolveExchange(on, saved('r2', true, 'binance', LATER))).to.deep.equal({ credentials: { secretRef: 'r2', keyLast4: 'ABCD', testnet: true }, status: 'disconnected', mirrorToTestnet: true, mirrorSince: NOW });
    expect(evolveExchange(on, saved('r3', false, 'binance', LATER))).to.deep.equal({ credentials: { secretRef: 'r3', keyLast4: 'ABCD', testnet: false }, status: 'disconnected', mirrorToTestnet: false, mirrorSince: null });
  });

  it('a recorded test of keys replaced meanwhile, or of no keys at all, leaves the status as it was', function () {
    expect(fold(exchangeDecider, [saved('r1'), saved('r2'), tested('r1')]).status).to.equal('disconnected');
    expect(fold(exchangeDecider, [saved('r1'), tested('r1'), saved('r2'), tested('r1', false)]).status).to.equal('disconnected');
    expect(fold(exchangeDecider, [tested('r1')])).to.deep.equal(initialExchangeState());
  });

  it('only testnet keys are mirrored to: a connected live account with the switch on, or no keys, mirrors nothing', function () {
    const live: ExchangeState = { credentials: { secretRef: 'r1', keyLast4: 'ABCD', testnet: false }, status: 'connected', mirrorToTestnet: true, mirrorSince: NOW };
    expect(mirrorsNow(live)).to.equal(false);
    expect(mirrorsNow({ ...live, credentials: null })).to.equal(false);
    expect(mirrorsNow({ ...live, credentials: { ...live.credentials!, testnet: true } })).to.equal(true);
  });

  it('a mirrored order changes nothing of the connection; the stream is per user and exchange; a key shows its last four; a mirrored trade\'s client order id is a UUID of the exchange, the user and the trade', function () {
    const state = fold(exchangeDecider, [saved('ref-1'), tested('ref-1'), mirror(true)]);
    for (const type of ['MirrorOrderRequested', 'MirrorOrderFilled', 'MirrorOrderFailed'] as const) {
      expect(evolveExchange(state, { type, data: { userId: 'u1', exchangeId: 'binance', tradeId: 't1' } } as unknown as ExchangeEvent), type).to.equal(state);
    }
    expect(exchangeStreamId('u1', 'binance')).to.equal('exchange-u1-binance');
    expect(keyLast4('abcdefgh1234')).to.equal('1234');
    expect(keyLast4('abc')).to.equal('abc');
    const id = mirrorClientOrderId('binance', 'u1', 't1');
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(mirrorClientOrderId('binance', 'u1', 't1')).to.equal(id);
    expect(new Set([id, mirrorClientOrderId('kraken', 'u1', 't1'), mirrorClientOrderId('binance', 'u2', 't1'), mirrorClientOrderId('binance', 'u1', 't2')]).size).to.equal(4);
    expect(id).to.equal(uuidv5('binance\nu1\nt1', MIRROR_NAMESPACE));
  });
});
