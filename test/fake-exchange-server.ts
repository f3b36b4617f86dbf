/**
 * A local fake of the three exchanges' REST APIs, for ccxt pointed at it (`urls.api` rewritten to
 * this server's origin, platform/src/exchanges/ccxt-exchange.ts `apiOrigin`). It answers in each
 * exchange's documented shapes, on the paths ccxt 4.5 calls (logged while building it):
 *
 * - Binance spot (testnet): GET /api/v3/exchangeInfo, GET /api/v3/account, POST /api/v3/order;
 *   HMAC-SHA256 signature of the query (or form body), key in X-MBX-APIKEY.
 * - Coinbase Exchange (sandbox): GET /currencies, /products, /accounts, POST /orders; CB-ACCESS-KEY,
 *   -SIGN (base64 HMAC-SHA256 with the base64 secret over timestamp + method + path + body), -TIMESTAMP
 *   and -PASSPHRASE.
 * - Kraken: GET /0/public/Assets, /0/public/AssetPairs, POST /0/private/BalanceEx; API-Key and
 *   API-Sign (base64 HMAC-SHA512 with the base64 secret over path + SHA-256(nonce + body)).
 *
 * Accounts are registered with their keys and balances; a request with an unknown key or a wrong
 * signature gets the exchange's authentication error. The behaviour of a private call is chosen by
 * the account: 'ok', 'slow' (answers after `slowMs`, beyond the adapter's timeout), 'garbled' (a 200
 * whose body is not JSON), 'rate-limited' (429 in the exchange's words). Public calls always answer.
 * A market order fills at once at `prices[base]` moved 0.05 % against the taker, as a book would.
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeBehaviour = 'ok' | 'slow' | 'garbled' | 'rate-limited';
export type FakeExchange = 'binance' | 'coinbase' | 'kraken';

export interface FakeAccount {
  exchange: FakeExchange;
  apiKey: string;
  secret: string;
  passphrase?: string;
  balances: Record<string, number>;
  behaviour?: FakeBehaviour;
}

export interface FakeRequest {
  exchange: FakeExchange;
  method: string;
  path: string;
  /** The API key the request carried, if any. */
  apiKey: string | undefined;
}

export interface FakeOrder {
  exchange: FakeExchange;
  apiKey: string;
  symbol: string;
  side: 'buy' | 'sell';
  amount: number;
  price: number;
  clientOrderId: string | undefined;
}

const SLIPPAGE = 0.0005;
const DEFAULT_PRICES: Record<string, number> = { BTC: 65000, ETH: 3200, BNB: 580, SOL: 150, ADA: 0.45, MATIC: 0.7, LINK: 14, AVAX: 30, DOT: 6, UNI: 8 };

export class FakeExchangeServer {
  readonly requests: FakeRequest[] = [];
  readonly orders: FakeOrder[] = [];
  readonly prices: Record<string, number> = { ...DEFAULT_PRICES };
  slowMs = 3000;
  private readonly accounts = new Map<string, FakeAccount>();
  private server: http.Server | undefined;
  private nextOrderId = 1;
  baseUrl = '';

  static async start(): Promise<FakeExchangeServer> {
    const fake = new FakeExchangeServer();
    fake.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void fake.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve));
    fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  addAccount(account: FakeAccount): FakeAccount {
    this.accounts.set(`${account.exchange}:${account.apiKey}`, account);
    return account;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async answer(req: http.IncomingMessage, body: string, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const exchange: FakeExchange = path.startsWith('/api/') ? 'binance' : path.startsWith('/0/') ? 'kraken' : 'coinbase';
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const apiKey = header('x-mbx-apikey') ?? header('cb-access-key') ?? header('api-key');
    this.requests.push({ exchange, method: req.method ?? 'GET', path, apiKey });
    const send = (status: number, payload: unknown) => {
      if (res.writableEnded) return;
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    try {
      if (exchange === 'binance') return this.binance(req, url, body, apiKey, send);
      if (exchange === 'coinbase') return this.coinbase(req, url, body, apiKey, header, send);
      return this.kraken(req, url, body, apiKey, header, send);
    } catch (error) {
      send(500, { message: String(error) });
    }
  }

  /** The account a private call is for, after its behaviour has been played; undefined when the call was answered already. */
  private async privateCall(
    exchange: FakeExchange,
    apiKey: string | undefined,
    signatureOk: (account: FakeAccount) => boolean,
    send: (status: number, payload: unknown) => void,
    errors: { auth: [number, unknown]; rateLimited: [number, unknown] },
  ): Promise<FakeAccount | undefined> {
    const account = apiKey === undefined ? undefined : this.accounts.get(`${exchange}:${apiKey}`);
    if (!account || !signatureOk(account)) return void send(...errors.auth);
    switch (account.behaviour ?? 'ok') {
      case 'slow':
        await new Promise((r) => setTimeout(r, this.slowMs).unref());
        return account;
      case 'garbled':
        return void send(200, '<html><body>502 Bad Gateway</body></html>');
      case 'rate-limited':
        return void send(...errors.rateLimited);
      case 'ok':
        return account;
    }
  }

  private fill(exchange: FakeExchange, apiKey: string, base: string, side: 'buy' | 'sell', amount: number, clientOrderId: string | undefined): FakeOrder {
    const mid = this.prices[base];
    if (mid === undefined) throw new Error(`no price for ${base}`);
    const price = Math.round(mid * (side === 'buy' ? 1 + SLIPPAGE : 1 - SLIPPAGE) * 100) / 100;
    const order: FakeOrder = { exchange, apiKey, symbol: base, side, amount, price, clientOrderId };
    this.orders.push(order);
    return order;
  }

  // ------------------------------------------------------------------------------------------------ Binance

  private async binance(req: http.IncomingMessage, url: URL, body: string, apiKey: string | undefined, send: (s: number, p: unknown) => void): Promise<void> {
    const path = url.pathname;
    if (req.method === 'GET' && path === '/api/v3/exchangeInfo') {
      return send(200, {
        timezone: 'UTC',
        serverTime: Date.now(),
        rateLimits: [],
        symbols: Object.keys(this.prices).map((base) => ({
          symbol: `${base}USDT`,
          status: 'TRADING',
          baseAsset: base,
          baseAssetPrecision: 8,
          quoteAsset: 'USDT',
          quotePrecision: 8,
          quoteAssetPrecision: 8,
          orderTypes: ['LIMIT', 'MARKET'],
          isSpotTradingAllowed: true,
          isMarginTradingAllowed: false,
          filters: [
            { filterType: 'PRICE_FILTER', minPrice: '0.00010000', maxPrice: '1000000.00000000', tickSize: '0.00010000' },
            { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
          ],
          permissions: ['SPOT'],
          permissionSets: [['SPOT']],
        })),
      });
    }
    const query = req.method === 'GET' ? url.search.slice(1) : body;
    const signed = query.replace(/&signature=[0-9a-f]+$/, '');
    const signature = /&signature=([0-9a-f]+)$/.exec(query)?.[1];
    const account = await this.privateCall('binance', apiKey, (a) => signature === createHmac('sha256', a.secret).update(signed).digest('hex'), send, {
      auth: [401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' }],
      rateLimited: [429, { code: -1003, msg: 'Too many requests; current limit of IP is 6000 request weight per 1 MINUTE.' }],
    });
    if (!account) return;
    const params = new URLSearchParams(query);
    if (req.method === 'GET' && path === '/api/v3/account') {
      return send(200, {
        makerCommission: 10,
        takerCommission: 10,
        canTrade: true,
        canWithdraw: false,
        canDeposit: false,
        updateTime: Date.now(),
        accountType: 'SPOT',
        balances: Object.entries(account.balances).map(([asset, free]) => ({ asset, free: free.toFixed(8), locked: '0.00000000' })),
        permissions: ['SPOT'],
      });
    }
    if (req.method === 'POST' && path === '/api/v3/order') {
      const symbol = params.get('symbol') ?? '';
      const base = symbol.replace(/USDT$/, '');
      const side = (params.get('side') ?? '').toLowerCase() as 'buy' | 'sell';
      const amount = Number(params.get('quantity'));
      const order = this.fill('binance', account.apiKey, base, side, amount, params.get('newClientOrderId') ?? undefined);
      const cost = order.price * amount;
      return send(200, {
        symbol,
        orderId: this.nextOrderId++,
        orderListId: -1,
        clientOrderId: order.clientOrderId ?? 'fake',
        transactTime: Date.now(),
        price: '0.00000000',
        origQty: amount.toFixed(8),
        executedQty: amount.toFixed(8),
        cummulativeQuoteQty: cost.toFixed(8),
        status: 'FILLED',
        timeInForce: 'GTC',
        type: 'MARKET',
        side: side.toUpperCase(),
        fills: [{ price: order.price.toFixed(8), qty: amount.toFixed(8), commission: (cost * 0.001).toFixed(8), commissionAsset: 'USDT', tradeId: this.nextOrderId }],
      });
    }
    send(404, { code: -1100, msg: `unknown path ${path}` });
  }

  // ------------------------------------------------------------------------------------------------ Coinbase Exchange

  private async coinbase(req: http.IncomingMessage, url: URL, body: string, apiKey: string | undefined, header: (n: string) => string | undefined, send: (s: number, p: unknown) => void): Promise<void> {
    const path = url.pathname;
    const bases = Object.keys(this.prices);
    if (req.method === 'GET' && path === '/currencies') {
      return send(200, [
        ...bases.map((id) => ({ id, name: id, min_size: '0.00000001', status: 'online', message: '', max_precision: '0.00000001', details: { type: 'crypto' } })),
        { id: 'USD', name: 'United States Dollar', min_size: '0.01', status: 'online', message: '', max_precision: '0.01', details: { type: 'fiat' } },
      ]);
    }
    if (req.method === 'GET' && path === '/products') {
      return send(
        200,
        bases.map((base) => ({
          id: `${base}-USD`,
          base_currency: base,
          quote_currency: 'USD',
          quote_increment: '0.0001',
          base_increment: '0.00000001',
          display_name: `${base}/USD`,
          min_market_funds: '1',
          margin_enabled: false,
          post_only: false,
          limit_only: false,
          cancel_only: false,
          status: 'online',
          status_message: '',
          trading_disabled: false,
          auction_mode: false,
        })),
      );
    }
    const signatureOk = (a: FakeAccount) => {
      const timestamp = header('cb-access-timestamp') ?? '';
      const what = timestamp + (req.method ?? 'GET') + url.pathname + url.search + body;
      const expected = createHmac('sha256', Buffer.from(a.secret, 'base64')).update(what).digest('base64');
      return header('cb-access-sign') === expected && header('cb-access-passphrase') === a.passphrase;
    };
    const account = await this.privateCall('coinbase', apiKey, signatureOk, send, { auth: [401, { message: 'Invalid API Key' }], rateLimited: [429, { message: 'Rate limit exceeded' }] });
    if (!account) return;
    if (req.method === 'GET' && path === '/accounts') {
      return send(
        200,
        Object.entries(account.balances).map(([currency, balance], i) => ({
          id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          currency,
          balance: balance.toFixed(8),
          available: balance.toFixed(8),
          hold: '0.00000000',
          profile_id: 'fake-profile',
          trading_enabled: true,
        })),
      );
    }
    if (req.method === 'POST' && path === '/orders') {
      const request = JSON.parse(body) as { product_id: string; side: 'buy' | 'sell'; size: string; client_oid?: string };
      const base = request.product_id.replace(/-USD$/, '');
      const amount = Number(request.size);
      const order = this.fill('coinbase', account.apiKey, base, request.side, amount, request.client_oid);
      const cost = order.price * amount;
      const at = new Date().toISOString();
      return send(200, {
        id: `11111111-0000-4000-8000-${String(this.nextOrderId++).padStart(12, '0')}`,
        product_id: request.product_id,
        side: request.side,
        type: 'market',
        size: request.size,
        post_only: false,
        created_at: at,
        done_at: at,
        done_reason: 'filled',
        fill_fees: (cost * 0.005).toFixed(8),
        filled_size: amount.toFixed(8),
        executed_value: cost.toFixed(8),
        status: 'done',
        settled: true,
      });
    }
    send(404, { message: 'NotFound' });
  }

  // ------------------------------------------------------------------------------------------------ Kraken

  private async kraken(req: http.IncomingMessage, url: URL, body: string, apiKey: string | undefined, header: (n: string) => string | undefined, send: (s: number, p: unknown) => void): Promise<void> {
    const path = url.pathname;
    const krakenAsset = (base: string) => (base === 'BTC' ? 'XXBT' : base === 'ETH' ? 'XETH' : base);
    if (req.method === 'GET' && path === '/0/public/Assets') {
      const result: Record<string, unknown> = { ZUSD: { aclass: 'currency', altname: 'USD', decimals: 4, display_decimals: 2, status: 'enabled' } };
      for (const base of Object.keys(this.prices)) result[krakenAsset(base)] = { aclass: 'currency', altname: base === 'BTC' ? 'XBT' : base, decimals: 10, display_decimals: 5, status: 'enabled' };
      return send(200, { error: [], result });
    }
    if (req.method === 'GET' && path === '/0/public/AssetPairs') {
      const result: Record<string, unknown> = {};
      for (const base of Object.keys(this.prices)) {
        const alt = base === 'BTC' ? 'XBT' : base;
        result[`${krakenAsset(base)}ZUSD`] = {
          altname: `${alt}USD`,
          wsname: `${alt}/USD`,
          aclass_base: 'currency',
          base: krakenAsset(base),
          aclass_quote: 'currency',
          quote: 'ZUSD',
          lot: 'unit',
          cost_decimals: 5,
          pair_decimals: 4,
          lot_decimals: 8,
          lot_multiplier: 1,
          leverage_buy: [],
          leverage_sell: [],
          fees: [[0, 0.26]],
          fees_maker: [[0, 0.16]],
          fee_volume_currency: 'ZUSD',
          margin_call: 80,
          margin_stop: 40,
          ordermin: '0.0001',
          costmin: '0.5',
          tick_size: '0.0001',
          status: 'online',
        };
      }
      return send(200, { error: [], result });
    }
    const signatureOk = (a: FakeAccount) => {
      const nonce = new URLSearchParams(body).get('nonce') ?? '';
      const digest = createHash('sha256').update(nonce + body).digest();
      const expected = createHmac('sha512', Buffer.from(a.secret, 'base64')).update(Buffer.concat([Buffer.from(path), digest])).digest('base64');
      return header('api-sign') === expected;
    };
    const account = await this.privateCall('kraken', apiKey, signatureOk, send, { auth: [200, { error: ['EAPI:Invalid key'] }], rateLimited: [200, { error: ['EAPI:Rate limit exceeded'] }] });
    if (!account) return;
    if (req.method === 'POST' && path === '/0/private/BalanceEx') {
      const result: Record<string, unknown> = {};
      for (const [asset, balance] of Object.entries(account.balances)) result[asset === 'USD' ? 'ZUSD' : krakenAsset(asset)] = { balance: balance.toFixed(8), hold_trade: '0.00000000' };
      return send(200, { error: [], result });
    }
    send(200, { error: ['EGeneral:Unknown method'] });
  }
}
