/** Events of a user's exchange connection stream, for the exchange specs (test support). */
import type { ExchangeEvent } from './exchange';

export const NOW = '2026-03-04T05:06:07.000Z';
export const meta = { metadata: { now: NOW } };
type ExchangeId = 'binance' | 'kraken';

export const saved = (secretRef: string, testnet = true, exchangeId: ExchangeId = 'binance', at = NOW): ExchangeEvent => ({
  type: 'ExchangeCredentialsSaved',
  data: { userId: 'u1', exchangeId, secretRef, keyLast4: 'ABCD', testnet, savedAt: at },
});

export const tested = (secretRef: string, ok = true, exchangeId: ExchangeId = 'binance'): ExchangeEvent => ({
  type: 'ExchangeConnectionTested',
  data: {
    userId: 'u1',
    exchangeId,
    secretRef,
    testnet: true,
    status: ok ? 'connected' : 'error',
    balances: ok ? [{ asset: 'BTC', free: 1, total: 1 }] : [],
    error: ok ? null : { kind: 'authentication', message: 'Invalid API-key' },
    testedAt: NOW,
  },
});

export const mirror = (on: boolean, exchangeId: ExchangeId = 'binance'): ExchangeEvent => ({ type: 'ExchangeMirrorChanged', data: { userId: 'u1', exchangeId, mirrorToTestnet: on, changedAt: NOW } });
