/**
 * The exchange port: what the product asks of a real exchange account. One adapter, ccxt
 * (ccxt-exchange.ts); tests point it at test/fake-exchange-server.ts. Failures are answers, not
 * exceptions: a test of a connection records them, so they come back classified with the exchange's
 * own message (shortened, and never holding the credentials).
 */
import type { AssetBalance, ConnectionFailure } from '@papertrade/domain/exchanges/exchange';
import type { ExchangeId } from '@papertrade/domain/exchanges/exchanges';
import type { ExchangeCredentials } from '../secrets/secret-vault';

export type GatewayResult<T> = ({ ok: true } & T) | { ok: false; error: ConnectionFailure };

export interface MarketOrderRequest {
  /** ccxt's unified market, e.g. BTC/USDT. */
  market: string;
  side: 'BUY' | 'SELL';
  amount: number;
  /** Sent as the exchange's client order id (a UUID, which both Binance and Coinbase Exchange accept). */
  clientOrderId: string;
}

export interface MarketOrderFill {
  orderId: string;
  price: number;
  amount: number;
  cost: number;
  fee: { cost: number; currency: string } | null;
}

export interface ExchangeGateway {
  fetchBalance(exchangeId: ExchangeId, credentials: ExchangeCredentials, options: { testnet: boolean }): Promise<GatewayResult<{ balances: AssetBalance[] }>>;
  /** A market order; only ever sent to a testnet by this product (the mirror). */
  createMarketOrder(exchangeId: ExchangeId, credentials: ExchangeCredentials, options: { testnet: boolean }, order: MarketOrderRequest): Promise<GatewayResult<MarketOrderFill>>;
}
