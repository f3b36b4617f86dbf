/**
 * Read models of the exchange connections (projectors/src/exchanges), as pure evolves:
 * - `exchange-connections`: one document per user and exchange, `{userId}:{exchangeId}`: what the
 *   Exchanges tab shows (configured, the key's last four characters, testnet, status, the last test's
 *   balances or error, the mirror switch). No secret: the events hold none.
 * - `mirror-orders`: one document per mirrored trade, `{userId}:{exchangeId}:{tradeId}`: the paper
 *   fill's price and the testnet's, for Trade History.
 * GET /api/exchanges and /api/exchanges/mirror-orders answer them (exchangeConnectionsResponse, mirrorOrdersResponse).
 */
import type { DomainEvent } from '../shared/decider';
import type { AssetBalance, ConnectionFailure, ConnectionStatus, ExchangeEvent } from './exchange';
import { EXCHANGES, exchangeIds, type ExchangeId } from './exchanges';
import { valueBalances, type ExchangeConnection, type MirrorOrder } from './contracts';

export const EXCHANGE_CONNECTIONS_PROJECTION = 'exchange-connections';
export const MIRROR_ORDERS_PROJECTION = 'mirror-orders';

export type ExchangeConnectionView = {
  userId: string;
  exchangeId: ExchangeId;
  keyLast4: string;
  testnet: boolean;
  status: ConnectionStatus;
  lastTestedAt: string | null;
  error: ConnectionFailure | null;
  balances: AssetBalance[] | null;
  mirrorToTestnet: boolean;
  /** The credentials the status is about (a test of older keys does not count). */
  secretRef: string;
};

export type MirrorOrderView = MirrorOrder & { userId: string; requestedAtMs: number };

const isExchangeEvent = (event: DomainEvent): event is ExchangeEvent =>
  ['ExchangeCredentialsSaved', 'ExchangeConnectionTested', 'ExchangeMirrorChanged', 'MirrorOrderRequested', 'MirrorOrderFilled', 'MirrorOrderFailed'].includes(event.type);

export const exchangeConnectionDocumentId = (userId: string, exchangeId: ExchangeId) => `${userId}:${exchangeId}`;
export const mirrorOrderDocumentId = (userId: string, exchangeId: ExchangeId, tradeId: string) => `${userId}:${exchangeId}:${tradeId}`;

export function exchangeConnectionDocumentIds(event: DomainEvent): string[] {
  if (!isExchangeEvent(event) || event.type.startsWith('MirrorOrder')) return [];
  return [exchangeConnectionDocumentId(event.data.userId, event.data.exchangeId)];
}

export function evolveExchangeConnectionView(doc: ExchangeConnectionView | null, event: DomainEvent): ExchangeConnectionView | null {
  if (!isExchangeEvent(event)) return doc;
  switch (event.type) {
    case 'ExchangeCredentialsSaved': {
      const { userId, exchangeId, keyLast4, testnet, secretRef } = event.data;
      return { userId, exchangeId, keyLast4, testnet, status: 'disconnected', lastTestedAt: null, error: null, balances: null, mirrorToTestnet: testnet && (doc?.mirrorToTestnet ?? false), secretRef };
    }
    case 'ExchangeConnectionTested':
      if (!doc || doc.secretRef !== event.data.secretRef) return doc;
      return { ...doc, status: event.data.status, lastTestedAt: event.data.testedAt, error: event.data.error, balances: event.data.status === 'connected' ? event.data.balances : null };
    case 'ExchangeMirrorChanged':
      return doc ? { ...doc, mirrorToTestnet: event.data.mirrorToTestnet } : doc;
    default:
      return doc;
  }
}

export function mirrorOrderDocumentIds(event: DomainEvent): string[] {
  if (!isExchangeEvent(event) || !event.type.startsWith('MirrorOrder')) return [];
  const data = event.data as { userId: string; exchangeId: ExchangeId; tradeId: string };
  return [mirrorOrderDocumentId(data.userId, data.exchangeId, data.tradeId)];
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export function evolveMirrorOrderView(doc: MirrorOrderView | null, event: DomainEvent): MirrorOrderView | null {
  if (!isExchangeEvent(event)) return doc;
  switch (event.type) {
    case 'MirrorOrderRequested': {
      const d = event.data;
      return {
        userId: d.userId,
        tradeId: d.tradeId,
        exchangeId: d.exchangeId,
        market: d.market,
        side: d.side,
        amount: d.amount,
        paperPrice: d.paperPrice,
        status: 'requested',
        testnetPrice: null,
        testnetAmount: null,
        differencePercent: null,
        error: null,
        requestedAt: d.requestedAt,
        requestedAtMs: Date.parse(d.requestedAt),
        updatedAt: d.requestedAt,
      };
    }
    case 'MirrorOrderFilled':
      if (!doc) return doc;
      return {
        ...doc,
        status: 'filled',
        testnetPrice: event.data.price,
        testnetAmount: event.data.amount,
        differencePercent: doc.paperPrice > 0 ? round(((event.data.price - doc.paperPrice) / doc.paperPrice) * 100, 4) : null,
        updatedAt: event.data.filledAt,
      };
    case 'MirrorOrderFailed':
      if (!doc) return doc;
      return { ...doc, status: 'failed', error: event.data.error, updatedAt: event.data.failedAt };
    default:
      return doc;
  }
}

/** Every exchange of the table with the caller's connection to it, balances valued at `priceOf`. */
export function exchangeConnectionsResponse(docs: readonly ExchangeConnectionView[], priceOf: (symbol: string) => number | undefined): ExchangeConnection[] {
  return EXCHANGES.map((info) => {
    const doc = docs.find((d) => d.exchangeId === info.id);
    return {
      id: info.id,
      name: info.name,
      feePercent: info.feePercent,
      fees: info.feePercent,
      testnetAvailable: info.testnet,
      needsPassphrase: info.needsPassphrase,
      status: doc?.status ?? 'disconnected',
      configured: doc !== undefined,
      keyLast4: doc?.keyLast4 ?? null,
      apiKey: doc ? `••••${doc.keyLast4}` : null,
      secretKey: null,
      // Testnet on by default wherever the exchange has one (spec section 9).
      testnet: doc ? doc.testnet : info.testnet,
      readOnly: !info.testnet,
      mirrorToTestnet: doc?.mirrorToTestnet ?? false,
      lastTestedAt: doc?.lastTestedAt ?? null,
      error: doc?.error ?? null,
      balance: doc?.balances ? valueBalances(doc.balances, priceOf) : null,
    };
  });
}

export function mirrorOrdersResponse(docs: readonly MirrorOrderView[]): MirrorOrder[] {
  return [...docs]
    .sort((a, b) => b.requestedAtMs - a.requestedAtMs)
    .map(({ userId: _userId, requestedAtMs: _ms, ...order }) => order);
}

export { exchangeIds };
