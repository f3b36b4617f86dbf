/**
 * HTTP contracts of the exchange connections (issue 21; premium-and-account.md, Exchange API
 * Integration). command-api validates with them, query-api answers with them, web/ imports them.
 *
 * - POST /api/exchanges/{id}/config `{apiKey, secretKey, passphrase?, testnet?}`: stores the keys
 *   encrypted (never returned); answers the key's last four characters. testnet defaults to on where
 *   the exchange has one, and is off (and may not be asked for) where it has none.
 * - POST /api/exchanges/{id}/test: fetches the balance with the stored keys; answers connected with the
 *   balance, or error with the exchange's message.
 * - POST /api/exchanges/{id}/mirror `{mirrorToTestnet}`: Mirror to testnet on or off.
 * - GET /api/exchanges: every exchange with the caller's connection (status, key's last four, testnet,
 *   balance valued at the market's prices, mirror) and no secret.
 * - GET /api/exchanges/mirror-orders: the testnet's fills beside the paper fills.
 */
import { z } from 'zod';
import { safeText } from '../shared/safe-text';
import { connectionFailureKinds, type AssetBalance } from './exchange';
import { EXCHANGES, exchangeIdSchema, exchangeIds, type ExchangeId, type ExchangeInfo } from './exchanges';

export { EXCHANGES, exchangeIds, exchangeIdSchema, type ExchangeId, type ExchangeInfo };

/** API keys and secrets as exchanges issue them: visible ASCII, no spaces (a pasted newline is trimmed). */
const credential = (name: string, min: number, max: number) =>
  safeText()
    .pipe(z.string().min(min, `${name} must be at least ${min} characters`).max(max, `${name} must be at most ${max} characters`))
    .pipe(z.string().regex(/^[\x21-\x7e]*$/, `${name} must be visible ASCII characters without spaces`));

/** An optional credential sent empty ("") counts as absent (DESIGN.md section 7). */
const optionalCredential = (name: string, min: number, max: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), credential(name, min, max).optional());

export const apiKeySchema = credential('apiKey', 8, 256);
export const apiSecretSchema = credential('secretKey', 8, 512);
export const passphraseSchema = credential('passphrase', 1, 128);

export const exchangeConfigRequestSchema = z.strictObject({
  apiKey: apiKeySchema.meta({ description: 'The API key (8 to 256 visible ASCII characters); only its last four characters are ever shown again' }),
  secretKey: apiSecretSchema.meta({ description: 'The API secret; stored encrypted (AES-256-GCM), never returned' }),
  passphrase: optionalCredential('passphrase', 1, 128).meta({ description: 'Coinbase Exchange only: the key\'s passphrase (required there)' }),
  testnet: z.boolean({ error: 'must be true or false' }).optional().meta({ description: 'Use the exchange\'s testnet (default: on where the exchange has one; Kraken has none)' }),
});
export type ExchangeConfigRequest = z.input<typeof exchangeConfigRequestSchema>;

export const exchangeMirrorRequestSchema = z.strictObject({ mirrorToTestnet: z.boolean({ error: 'must be true or false' }) });

const position = z.string().nullable();

export const connectionFailureSchema = z.object({ kind: z.enum(connectionFailureKinds), message: z.string() });

export const assetBalanceSchema = z.object({ asset: z.string(), free: z.number(), total: z.number(), usdValue: z.number().nullable() });

/**
 * An account's balance as the screen shows it: the assets, their value in USD at the market's prices
 * (stablecoins and USD at 1; an asset the market does not price counts for nothing and is listed
 * in `unpriced`), and the share allocated to coins rather than cash, in percent.
 */
export const balanceSchema = z.object({
  totalUsd: z.number(),
  allocatedPercent: z.number(),
  assets: z.array(assetBalanceSchema),
  unpriced: z.array(z.string()),
});
export type Balance = z.infer<typeof balanceSchema>;

export const CASH_ASSETS: ReadonlySet<string> = new Set(['USD', 'USDT', 'USDC', 'BUSD', 'DAI', 'ZUSD', 'FDUSD']);

/** Kraken names some assets its own way (XXBT, XETH, ZUSD); the rest of the world's symbols. */
const ALIASES: Readonly<Record<string, string>> = { XBT: 'BTC', XXBT: 'BTC', XETH: 'ETH', ZUSD: 'USD', XDG: 'DOGE' };
export const canonicalAsset = (asset: string): string => ALIASES[asset.toUpperCase()] ?? asset.toUpperCase();

/** Values balances at `priceOf(symbol)` (USD per unit; undefined when not priced). Pure. */
export function valueBalances(balances: readonly AssetBalance[], priceOf: (symbol: string) => number | undefined): Balance {
  let totalUsd = 0;
  let coinsUsd = 0;
  const unpriced: string[] = [];
  const assets = balances.map((b) => {
    const symbol = canonicalAsset(b.asset);
    const price = CASH_ASSETS.has(symbol) ? 1 : priceOf(symbol);
    if (price === undefined) {
      unpriced.push(b.asset);
      return { ...b, usdValue: null };
    }
    const usdValue = Math.round(b.total * price * 100) / 100;
    totalUsd += usdValue;
    if (!CASH_ASSETS.has(symbol)) coinsUsd += usdValue;
    return { ...b, usdValue };
  });
  totalUsd = Math.round(totalUsd * 100) / 100;
  const allocatedPercent = totalUsd > 0 ? Math.round((coinsUsd / totalUsd) * 10000) / 100 : 0;
  return { totalUsd, allocatedPercent, assets, unpriced };
}

export const exchangeConfigResponseSchema = z.object({
  exchangeId: exchangeIdSchema,
  status: z.enum(['disconnected', 'connected', 'error']),
  keyLast4: z.string(),
  testnet: z.boolean(),
  position,
});
export type ExchangeConfigResponse = z.infer<typeof exchangeConfigResponseSchema>;

export const exchangeTestResponseSchema = z.object({
  exchangeId: exchangeIdSchema,
  status: z.enum(['connected', 'error']),
  testnet: z.boolean(),
  balance: balanceSchema.nullable(),
  error: connectionFailureSchema.nullable(),
  position,
});
export type ExchangeTestResponse = z.infer<typeof exchangeTestResponseSchema>;

export const exchangeMirrorResponseSchema = z.object({ exchangeId: exchangeIdSchema, mirrorToTestnet: z.boolean(), position });
export type ExchangeMirrorResponse = z.infer<typeof exchangeMirrorResponseSchema>;

export const exchangeConnectionSchema = z.object({
  id: exchangeIdSchema,
  name: z.string(),
  feePercent: z.number(),
  /** Whether the exchange has a testnet this product can use. */
  testnetAvailable: z.boolean(),
  needsPassphrase: z.boolean(),
  /** The spec's name (Exchange entity, `fees`): the fee in percent, as feePercent. */
  fees: z.number(),
  status: z.enum(['disconnected', 'connected', 'error']),
  configured: z.boolean(),
  keyLast4: z.string().nullable(),
  /** The spec's Exchange entity names apiKey and secretKey: the key is answered masked (its last four), the secret never (always null). */
  apiKey: z.string().nullable(),
  secretKey: z.null(),
  testnet: z.boolean(),
  /** Real trading on this connection is possible at all (a testnet account, or a live one of an exchange with a sandbox); Kraken: never. */
  readOnly: z.boolean(),
  mirrorToTestnet: z.boolean(),
  lastTestedAt: z.string().nullable(),
  error: connectionFailureSchema.nullable(),
  balance: balanceSchema.nullable(),
});
export type ExchangeConnection = z.infer<typeof exchangeConnectionSchema>;

export const exchangesResponseSchema = z.object({ exchanges: z.array(exchangeConnectionSchema) });
export type ExchangesResponse = z.infer<typeof exchangesResponseSchema>;

export const mirrorOrderSchema = z.object({
  tradeId: z.string(),
  exchangeId: exchangeIdSchema,
  market: z.string(),
  side: z.enum(['BUY', 'SELL']),
  amount: z.number(),
  paperPrice: z.number(),
  status: z.enum(['requested', 'filled', 'failed']),
  testnetPrice: z.number().nullable(),
  testnetAmount: z.number().nullable(),
  /** (testnet price - paper price) / paper price, in percent; null until filled. */
  differencePercent: z.number().nullable(),
  error: connectionFailureSchema.nullable(),
  requestedAt: z.string(),
  updatedAt: z.string(),
});
export type MirrorOrder = z.infer<typeof mirrorOrderSchema>;

export const mirrorOrdersResponseSchema = z.object({ orders: z.array(mirrorOrderSchema) });
export type MirrorOrdersResponse = z.infer<typeof mirrorOrdersResponseSchema>;

/** Path parameter `{id}` of the exchange routes: unknown exchanges are a 404, not a 400. */
export const exchangeIdParamSchema = exchangeIdSchema;

export function exchangeName(id: ExchangeId): string {
  return EXCHANGES.find((e) => e.id === id)!.name;
}
