/**
 * The exchange port over ccxt (the field's standard library for exchange APIs), one client per call
 * (the credentials are a person's), the markets each exchange lists cached per process for an hour.
 *
 * Testnets: `setSandboxMode(true)` only where the exchange has a test URL (`urls.test`): on one without
 * it ccxt throws or, in other versions, leaves the client without an API address, so the table in
 * domain/src/exchanges/exchanges.ts and the URL are both checked, and a live request is never the
 * fallback of a testnet one.
 *
 * `apiOrigin` (EXCHANGE_API_URL; tests only) replaces the scheme and host of every API URL of the
 * client, keeping the paths, so ccxt speaks to a local fake exchange (test/fake-exchange-server.ts).
 *
 * Errors are classified by ccxt's classes (AuthenticationError, RateLimitExceeded / DDoSProtection,
 * RequestTimeout, BadResponse / NullResponse, NetworkError, ExchangeError) and their messages
 * shortened to 300 characters, hosts and query strings (signatures, timestamps) cut, and any credential removed.
 */
import ccxt from 'ccxt';
import type { AssetBalance, ConnectionFailure } from '@papertrade/domain/exchanges/exchange';
import { exchangeInfo, type ExchangeId } from '@papertrade/domain/exchanges/exchanges';
import type { ExchangeCredentials } from '../secrets/secret-vault';
import type { ExchangeGateway, GatewayResult, MarketOrderFill, MarketOrderRequest } from './exchange-gateway';

type CcxtExchange = InstanceType<typeof ccxt.Exchange>;
type CcxtExchangeClass = new (config: Record<string, unknown>) => CcxtExchange;

export interface CcxtGatewayOptions {
  /** Replaces every API URL's origin (a local fake in tests). */
  apiOrigin?: string;
  /** ccxt's request timeout, ms (default 10 000). */
  timeoutMs?: number;
}

const MARKETS_TTL_MS = 60 * 60 * 1000;
const MAX_MESSAGE = 300;

function rewriteOrigin(urls: unknown, origin: string): unknown {
  if (typeof urls === 'string') return urls.replace(/^https?:\/\/[^/]+/, origin);
  if (urls && typeof urls === 'object') return Object.fromEntries(Object.entries(urls).map(([k, v]) => [k, rewriteOrigin(v, origin)]));
  return urls;
}

export function classifyExchangeError(error: unknown, credentials?: ExchangeCredentials): ConnectionFailure {
  const kind: ConnectionFailure['kind'] =
    error instanceof ccxt.AuthenticationError || error instanceof ccxt.PermissionDenied || error instanceof ccxt.AccountSuspended
      ? 'authentication'
      : error instanceof ccxt.RateLimitExceeded || error instanceof ccxt.DDoSProtection
        ? 'rate-limited'
        : error instanceof ccxt.RequestTimeout
          ? 'timeout'
          : error instanceof ccxt.BadResponse || error instanceof ccxt.NullResponse || error instanceof SyntaxError
            ? 'bad-response'
            : error instanceof ccxt.NetworkError
              ? 'network'
              : 'exchange';
  return { kind, message: cleanMessage(error instanceof Error ? error.message : String(error), credentials) };
}

/** The exchange's message, fit to be stored and shown: no credential, no query string, one line, 300 characters at most. */
export function cleanMessage(message: string, credentials?: ExchangeCredentials): string {
  let text = message;
  for (const value of [credentials?.secret, credentials?.apiKey, credentials?.passphrase]) {
    if (value && value.length >= 4) text = text.split(value).join('[redacted]');
  }
  text = text
    // ccxt names the URL it called: the path says enough, the host is ours to know (and a test's fake is on loopback).
    .replace(/https?:\/\/[^/\s"']+/g, '')
    .replace(/\?[^\s"']*/g, '?…')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim();
  if (text.length === 0) text = 'No message from the exchange';
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text;
}

/**
 * ccxt reads a 200 answer that is not JSON (an HTML error page from a proxy, say) as no data, and its
 * balance as an empty account: a connection would read "connected, balance 0". The last answer's
 * parsed JSON tells the two apart.
 */
function checkJson(client: CcxtExchange): void {
  const json = (client as unknown as { last_json_response?: unknown }).last_json_response;
  if (json === undefined || json === null || typeof json !== 'object') {
    const body = String((client as unknown as { last_http_response?: unknown }).last_http_response ?? '').slice(0, 120);
    throw new ccxt.BadResponse(`${client.id} answered something that is not JSON: ${body}`);
  }
}

export class CcxtExchangeGateway implements ExchangeGateway {
  private readonly markets = new Map<string, { at: number; markets: unknown; currencies: unknown }>();

  constructor(private readonly options: CcxtGatewayOptions = {}) {}

  /** A client of `exchangeId` with these credentials, on its testnet when asked (never a live fallback). */
  client(exchangeId: ExchangeId, credentials: ExchangeCredentials, testnet: boolean): CcxtExchange {
    const info = exchangeInfo(exchangeId);
    const ExchangeClass = (ccxt as unknown as Record<string, CcxtExchangeClass>)[info.ccxtClass]!;
    const client = new ExchangeClass({
      apiKey: credentials.apiKey,
      secret: credentials.secret,
      ...(credentials.passphrase ? { password: credentials.passphrase } : {}),
      timeout: this.options.timeoutMs ?? 10_000,
      enableRateLimit: true,
      // Kept so that an answer that was not JSON can be told from an empty account (see `checkJson`).
      enableLastJsonResponse: true,
      enableLastHttpResponse: true,
      // Spot only: Binance would otherwise load its futures and options markets too.
      options: info.ccxtClass === 'binance' ? { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false } : {},
    });
    if (testnet) {
      const urls = client.urls as Record<string, unknown>;
      if (!info.testnet || !urls['test']) throw new Error(`${info.name} has no testnet`);
      client.setSandboxMode(true);
    }
    if (this.options.apiOrigin) (client.urls as Record<string, unknown>)['api'] = rewriteOrigin((client.urls as Record<string, unknown>)['api'], this.options.apiOrigin);
    return client;
  }

  private async withMarkets(client: CcxtExchange, key: string): Promise<void> {
    const cached = this.markets.get(key);
    if (cached && Date.now() - cached.at < MARKETS_TTL_MS) {
      client.setMarkets(cached.markets as never, cached.currencies as never);
      return;
    }
    await client.loadMarkets();
    this.markets.set(key, { at: Date.now(), markets: client.markets, currencies: client.currencies });
  }

  async fetchBalance(exchangeId: ExchangeId, credentials: ExchangeCredentials, options: { testnet: boolean }): Promise<GatewayResult<{ balances: AssetBalance[] }>> {
    try {
      const client = this.client(exchangeId, credentials, options.testnet);
      await this.withMarkets(client, `${exchangeId}:${options.testnet}`);
      const balance = await client.fetchBalance();
      checkJson(client);
      const totals = (balance.total ?? {}) as unknown as Record<string, number | undefined>;
      const free = (balance.free ?? {}) as unknown as Record<string, number | undefined>;
      const balances: AssetBalance[] = Object.entries(totals)
        .filter(([, total]) => typeof total === 'number' && Number.isFinite(total) && total > 0)
        .map(([asset, total]) => ({ asset, free: Number(free[asset] ?? 0), total: total! }))
        .sort((a, b) => a.asset.localeCompare(b.asset));
      return { ok: true, balances };
    } catch (error) {
      return { ok: false, error: classifyExchangeError(error, credentials) };
    }
  }

  async createMarketOrder(exchangeId: ExchangeId, credentials: ExchangeCredentials, options: { testnet: boolean }, order: MarketOrderRequest): Promise<GatewayResult<MarketOrderFill>> {
    try {
      const client = this.client(exchangeId, credentials, options.testnet);
      await this.withMarkets(client, `${exchangeId}:${options.testnet}`);
      const placed = await client.createOrder(order.market, 'market', order.side === 'BUY' ? 'buy' : 'sell', order.amount, undefined, { clientOrderId: order.clientOrderId });
      checkJson(client);
      const amount = Number(placed.filled ?? placed.amount ?? order.amount);
      const cost = Number(placed.cost ?? 0);
      const price = Number(placed.average ?? placed.price ?? (amount > 0 ? cost / amount : 0));
      if (!(price > 0) || !(amount > 0)) return { ok: false, error: { kind: 'bad-response', message: `The exchange answered order ${String(placed.id)} without a fill price or amount (status ${String(placed.status)})` } };
      const fee = placed.fee && typeof placed.fee.cost === 'number' ? { cost: placed.fee.cost, currency: String(placed.fee.currency ?? '') } : null;
      return { ok: true, orderId: String(placed.id), price, amount, cost: cost || price * amount, fee };
    } catch (error) {
      return { ok: false, error: classifyExchangeError(error, credentials) };
    }
  }
}
