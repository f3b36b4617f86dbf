/**
 * The `exchange-{userId}-{exchangeId}` stream: one person's connection to one exchange.
 *
 * - ExchangeCredentialsSaved: API keys were stored. The event holds only a reference to the
 *   ciphertext (`secretRef`, a document of the private secrets collection that query-api never
 *   serves, platform/src/secrets) and the last four characters of the API key, so the screen can say
 *   which key is in use. The key, the secret and the passphrase never enter an event.
 * - ExchangeConnectionTested: the balance was fetched with those keys (connected, with the balances)
 *   or not (error, with the kind of failure and the exchange's message).
 * - ExchangeMirrorChanged: "Mirror to testnet" switched on or off.
 * - MirrorOrderRequested / MirrorOrderFilled / MirrorOrderFailed: a bot's paper trade sent as a market
 *   order to the testnet (workers/src/testnet-mirror.ts). Requested is appended before the order
 *   goes out, so a replay that finds it does not order again.
 */
import { v5 as uuidv5 } from 'uuid';
import type { DomainEvent } from '../shared/decider';
import type { ExchangeId } from './exchanges';

/** One asset of an exchange account. */
export interface AssetBalance {
  asset: string;
  free: number;
  total: number;
}

export const connectionFailureKinds = ['authentication', 'timeout', 'rate-limited', 'bad-response', 'network', 'exchange'] as const;
export type ConnectionFailureKind = (typeof connectionFailureKinds)[number];

export interface ConnectionFailure {
  kind: ConnectionFailureKind;
  /** The exchange's own message (shortened, without credentials). */
  message: string;
}

export type ExchangeCredentialsSaved = DomainEvent<
  'ExchangeCredentialsSaved',
  { userId: string; exchangeId: ExchangeId; secretRef: string; keyLast4: string; testnet: boolean; savedAt: string }
>;

export type ExchangeConnectionTested = DomainEvent<
  'ExchangeConnectionTested',
  {
    userId: string;
    exchangeId: ExchangeId;
    /** The credentials tested (a test of keys replaced meanwhile says nothing of the new ones). */
    secretRef: string;
    testnet: boolean;
    status: 'connected' | 'error';
    /** connected: the account's non-zero balances; error: empty. */
    balances: AssetBalance[];
    error: ConnectionFailure | null;
    testedAt: string;
  }
>;

export type ExchangeMirrorChanged = DomainEvent<'ExchangeMirrorChanged', { userId: string; exchangeId: ExchangeId; mirrorToTestnet: boolean; changedAt: string }>;

export type MirrorOrderIntent = {
  /** The paper trade (SimulatedTradePlaced.data.tradeId) this order mirrors. */
  tradeId: string;
  /** The exchange's market, e.g. BTC/USDT. */
  market: string;
  side: 'BUY' | 'SELL';
  amount: number;
  /** The paper fill's price, USD per coin. */
  paperPrice: number;
  /** Sent to the exchange as the client order id (derived from the trade id). */
  clientOrderId: string;
  /** When the paper trade was placed. */
  paperPlacedAt: string;
};

export type MirrorOrderRequested = DomainEvent<'MirrorOrderRequested', { userId: string; exchangeId: ExchangeId; requestedAt: string } & MirrorOrderIntent>;

export type MirrorOrderFilled = DomainEvent<
  'MirrorOrderFilled',
  {
    userId: string;
    exchangeId: ExchangeId;
    tradeId: string;
    orderId: string;
    /** The testnet's average fill price. */
    price: number;
    amount: number;
    /** price x amount as the exchange reports it (quote currency). */
    cost: number;
    fee: { cost: number; currency: string } | null;
    filledAt: string;
  }
>;

export type MirrorOrderFailed = DomainEvent<'MirrorOrderFailed', { userId: string; exchangeId: ExchangeId; tradeId: string; error: ConnectionFailure; failedAt: string }>;

export type ExchangeEvent = ExchangeCredentialsSaved | ExchangeConnectionTested | ExchangeMirrorChanged | MirrorOrderRequested | MirrorOrderFilled | MirrorOrderFailed;

export type ConnectionStatus = 'disconnected' | 'connected' | 'error';

export interface ExchangeState {
  credentials: { secretRef: string; keyLast4: string; testnet: boolean } | null;
  status: ConnectionStatus;
  mirrorToTestnet: boolean;
  /** Since when the mirror is on: trades placed before are not mirrored (a replay of old trades sends nothing). */
  mirrorSince: string | null;
}

export const initialExchangeState = (): ExchangeState => ({ credentials: null, status: 'disconnected', mirrorToTestnet: false, mirrorSince: null });

export function evolveExchange(state: ExchangeState, event: ExchangeEvent): ExchangeState {
  switch (event.type) {
    case 'ExchangeCredentialsSaved': {
      const { secretRef, keyLast4, testnet } = event.data;
      // New keys are untested: the connection is unknown until the next test. A live (non-testnet)
      // connection has nothing to mirror to.
      const mirrorToTestnet = testnet && state.mirrorToTestnet;
      return { credentials: { secretRef, keyLast4, testnet }, status: 'disconnected', mirrorToTestnet, mirrorSince: mirrorToTestnet ? state.mirrorSince : null };
    }
    case 'ExchangeConnectionTested':
      if (state.credentials?.secretRef !== event.data.secretRef) return state;
      return { ...state, status: event.data.status };
    case 'ExchangeMirrorChanged':
      return { ...state, mirrorToTestnet: event.data.mirrorToTestnet, mirrorSince: event.data.mirrorToTestnet ? event.data.changedAt : null };
    case 'MirrorOrderRequested':
    case 'MirrorOrderFilled':
    case 'MirrorOrderFailed':
      return state;
  }
}

export const exchangeStreamId = (userId: string, exchangeId: ExchangeId) => `exchange-${userId}-${exchangeId}`;

/** The last four characters of an API key: what the screen and the events may show of it. */
export function keyLast4(apiKey: string): string {
  return apiKey.slice(-4);
}

const CLIENT_ORDER_NAMESPACE = '8c0e3f9a-2d51-4c1e-9a6b-3f4e5d6c7b8a';

/** The client order id a mirrored trade is sent with: a UUID (Binance and Coinbase Exchange both take one) derived from the trade. */
export function mirrorClientOrderId(exchangeId: ExchangeId, userId: string, tradeId: string): string {
  return uuidv5(`${exchangeId}\n${userId}\n${tradeId}`, CLIENT_ORDER_NAMESPACE);
}
