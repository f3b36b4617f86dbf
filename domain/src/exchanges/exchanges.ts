/**
 * The exchanges the product connects to, in one table: the Exchange API Integration screen, the
 * ccxt adapter (platform/src/exchanges) and the arbitrage strategy (per-exchange quotes net of each
 * exchange's fee, DESIGN.md section 6) all read this one, so a fee cannot differ between them.
 *
 * Fees are the spec's (premium-and-account.md section 3: Binance 0.1 %, Coinbase Pro 0.5 %, Kraken
 * 0.26 %), the taker fee of each exchange's lowest tier.
 *
 * Testnets, as the installed ccxt (4.5) has them:
 * - Binance: spot's sandbox (testnet.binance.vision) works with `setSandboxMode(true)`.
 * - Coinbase: Coinbase Advanced Trade (ccxt `coinbase`) has no sandbox; Coinbase Exchange (ccxt
 *   `coinbaseexchange`, formerly Coinbase Pro: the spec's name and its 0.5 % fee) has one, so this
 *   product connects to Coinbase Exchange. Its API keys come with a passphrase, a third credential.
 * - Kraken: spot has no sandbox. A Kraken connection is read-only (its balance); real trading stays
 *   off and nothing is mirrored to it.
 * Where there is no sandbox ccxt's `setSandboxMode(true)` must never be called: depending on the
 * version it throws or leaves the exchange without an API address. The adapter looks for a test URL
 * first (`urls.test`).
 */
import { z } from 'zod';

export const exchangeIds = ['binance', 'coinbase', 'kraken'] as const;
export type ExchangeId = (typeof exchangeIds)[number];

export const exchangeIdSchema = z.enum(exchangeIds, { error: (issue) => `unknown exchange ${JSON.stringify(issue.input)} (known: ${exchangeIds.join(', ')})` });

export interface ExchangeInfo {
  id: ExchangeId;
  /** As the screen shows it. */
  name: string;
  /** The taker fee in percent (0.1 = 0.1 %). */
  feePercent: number;
  /** The ccxt class that speaks to it. */
  ccxtClass: 'binance' | 'coinbaseexchange' | 'kraken';
  /** Whether the exchange has a sandbox (testnet) this product can use. */
  testnet: boolean;
  /** Coinbase Exchange's keys have a passphrase besides the key and the secret. */
  needsPassphrase: boolean;
  /** The quote currency the testnet mirror trades a coin against (BTC/USDT on Binance, BTC-USD on Coinbase). */
  quote: 'USDT' | 'USD';
}

export const EXCHANGES: readonly ExchangeInfo[] = Object.freeze([
  { id: 'binance', name: 'Binance', feePercent: 0.1, ccxtClass: 'binance', testnet: true, needsPassphrase: false, quote: 'USDT' },
  { id: 'coinbase', name: 'Coinbase Pro', feePercent: 0.5, ccxtClass: 'coinbaseexchange', testnet: true, needsPassphrase: true, quote: 'USD' },
  { id: 'kraken', name: 'Kraken', feePercent: 0.26, ccxtClass: 'kraken', testnet: false, needsPassphrase: false, quote: 'USD' },
]);

export function exchangeInfo(id: ExchangeId): ExchangeInfo {
  return EXCHANGES.find((e) => e.id === id)!;
}

/** The fee as a rate (0.001 for 0.1 %), for the arbitrage strategy's quotes net of fees. */
export function exchangeFeeRate(id: ExchangeId): number {
  return exchangeInfo(id).feePercent / 100;
}
