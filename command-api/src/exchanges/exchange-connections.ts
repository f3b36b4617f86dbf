/**
 * Saving and testing an exchange connection, shared by POST /api/exchanges/{id}/config, /test and
 * POST /api/settings/api.
 *
 * Saving: the keys are sealed into the vault first (a new reference, a fresh IV), then
 * ExchangeCredentialsSaved names the reference; if the append fails the sealed record is removed, and
 * once it succeeds the record of the keys it replaced is removed too (replaced keys are not kept).
 * With an Idempotency-Key a replay finds the first request's event and seals nothing.
 *
 * Testing: the stored keys are unsealed, the balance fetched through ccxt, and the result appended
 * (connected with the balances, or error with the exchange's message); the answer values the balance
 * at the market's prices. Nothing here logs or answers a key, a secret or a passphrase.
 */
import type { Context } from 'koa';
import { exchangeStreamId, keyLast4, type ExchangeCredentialsSaved, type ExchangeConnectionTested } from '@papertrade/domain/exchanges/exchange';
import { exchangeDecider, noTestnetMessage } from '@papertrade/domain/exchanges/exchange.decider';
import { exchangeIdSchema, exchangeInfo, type ExchangeId } from '@papertrade/domain/exchanges/exchanges';
import { valueBalances, type Balance } from '@papertrade/domain/exchanges/contracts';
import { coins } from '@papertrade/domain/market/coins';
import { IllegalStateError, NotFoundError, ValidationError } from '@papertrade/domain/shared/errors';
import type { CommandMeta } from '@papertrade/platform/commands/command-handler';
import type { Position } from '@papertrade/platform/event-store/position';
import { SecretDecryptionError } from '@papertrade/platform/secrets/secret-box';
import type { ExchangeCredentials } from '@papertrade/platform/secrets/secret-vault';
import type { CommandApiDeps } from '../deps';

export function exchangeIdFrom(ctx: Context): ExchangeId {
  const parsed = exchangeIdSchema.safeParse(ctx.params.id);
  if (!parsed.success) throw new NotFoundError(`Exchange not found: ${parsed.error.issues[0]?.message ?? 'unknown exchange'}`);
  return parsed.data;
}

/** The rules of an exchange's credentials the contract alone cannot say: testnet only where there is one, Coinbase's passphrase. */
export function checkedCredentials(
  exchangeId: ExchangeId,
  body: { apiKey: string; secretKey: string; passphrase?: string | undefined; testnet?: boolean | undefined },
  options: { fieldPrefix?: string; passphraseOptional?: boolean } = {},
): { credentials: ExchangeCredentials; testnet: boolean } {
  const fieldPrefix = options.fieldPrefix ?? '';
  const info = exchangeInfo(exchangeId);
  const testnet = body.testnet ?? info.testnet;
  if (testnet && !info.testnet) throw new ValidationError(`${fieldPrefix}testnet: ${noTestnetMessage(exchangeId)}`, { fields: [`${fieldPrefix}testnet`] });
  const passphraseField = fieldPrefix ? `${fieldPrefix}Passphrase` : 'passphrase';
  if (info.needsPassphrase && !body.passphrase && !options.passphraseOptional) throw new ValidationError(`${passphraseField}: ${info.name} (Coinbase Exchange) API keys need their passphrase`, { fields: [passphraseField] });
  if (!info.needsPassphrase && body.passphrase) throw new ValidationError(`passphrase: ${info.name} API keys have no passphrase`, { fields: ['passphrase'] });
  return { credentials: { apiKey: body.apiKey, secret: body.secretKey, ...(body.passphrase ? { passphrase: body.passphrase } : {}) }, testnet };
}

export interface SavedConnection {
  exchangeId: ExchangeId;
  keyLast4: string;
  testnet: boolean;
  position: Position | undefined;
}

export async function saveConnection(deps: CommandApiDeps, userId: string, meta: CommandMeta, exchangeId: ExchangeId, credentials: ExchangeCredentials, testnet: boolean): Promise<SavedConnection> {
  const stream = exchangeStreamId(userId, exchangeId);
  const loaded = await deps.handler.load(exchangeDecider, stream, meta);
  const earlier = loaded.previous.find((e) => e.type === 'ExchangeCredentialsSaved');
  if (earlier) {
    // The same request again (Idempotency-Key): nothing is sealed or appended.
    const data = earlier.data as ExchangeCredentialsSaved['data'];
    return { exchangeId, keyLast4: data.keyLast4, testnet: data.testnet, position: earlier.position };
  }
  const vault = deps.exchangeSecrets();
  const replaced = loaded.state.credentials?.secretRef;
  const secretRef = await vault.store(userId, exchangeId, credentials);
  let result;
  try {
    result = await deps.handler.handle(
      exchangeDecider,
      stream,
      { type: 'SaveExchangeCredentials', data: { userId, exchangeId, secretRef, keyLast4: keyLast4(credentials.apiKey), testnet }, metadata: { now: deps.handler.now() } },
      meta,
      loaded,
    );
  } catch (error) {
    await vault.remove(secretRef).catch(() => undefined);
    throw error;
  }
  if (replaced && replaced !== secretRef) await vault.remove(replaced).catch(() => undefined);
  deps.logger.info('exchange keys saved', { userId, exchangeId, keyLast4: keyLast4(credentials.apiKey), testnet });
  return { exchangeId, keyLast4: keyLast4(credentials.apiKey), testnet, position: result.position };
}

/** USD per unit of each coin the market knows, by symbol. */
export async function marketPrices(deps: CommandApiDeps): Promise<(symbol: string) => number | undefined> {
  const quotes = await deps.marketData.prices().catch(() => []);
  const bySymbol = new Map<string, number>(quotes.map((q) => [q.symbol, q.price]));
  return (symbol) => (coins.some((c) => c.symbol === symbol) ? bySymbol.get(symbol) : undefined);
}

export interface TestedConnection {
  status: 'connected' | 'error';
  testnet: boolean;
  balance: Balance | null;
  error: ExchangeConnectionTested['data']['error'];
  position: Position | undefined;
}

export async function testConnection(deps: CommandApiDeps, userId: string, meta: CommandMeta, exchangeId: ExchangeId): Promise<TestedConnection> {
  const stream = exchangeStreamId(userId, exchangeId);
  const loaded = await deps.handler.load(exchangeDecider, stream, meta);
  const answer = async (data: ExchangeConnectionTested['data'], position: Position | undefined): Promise<TestedConnection> => ({
    status: data.status,
    testnet: data.testnet,
    balance: data.status === 'connected' ? valueBalances(data.balances, await marketPrices(deps)) : null,
    error: data.error,
    position,
  });
  const earlier = loaded.previous.find((e) => e.type === 'ExchangeConnectionTested');
  if (earlier) return answer(earlier.data as ExchangeConnectionTested['data'], earlier.position);
  const saved = loaded.state.credentials;
  const name = exchangeInfo(exchangeId).name;
  if (!saved) throw new IllegalStateError(`No API keys are saved for ${name}: save the API key and secret first`);
  let credentials: ExchangeCredentials | undefined;
  try {
    credentials = await deps.exchangeSecrets().read(saved.secretRef, userId, exchangeId);
  } catch (error) {
    if (!(error instanceof SecretDecryptionError)) throw error;
    deps.logger.warn('exchange keys cannot be unsealed', { userId, exchangeId, reason: error.message });
    throw new IllegalStateError(`The ${name} keys stored for you cannot be read with this server's key: save them again`);
  }
  if (!credentials) throw new IllegalStateError(`The ${name} keys stored for you are missing: save them again`);
  const result = await deps.exchangeGateway.fetchBalance(exchangeId, credentials, { testnet: saved.testnet });
  const handled = await deps.handler.handle(
    exchangeDecider,
    stream,
    { type: 'RecordConnectionTest', data: { userId, exchangeId, secretRef: saved.secretRef, result: result.ok ? { ok: true, balances: result.balances } : { ok: false, error: result.error } }, metadata: { now: deps.handler.now() } },
    meta,
    loaded,
  );
  const tested = handled.events.find((e): e is ExchangeConnectionTested => e.type === 'ExchangeConnectionTested');
  // Keys replaced while the exchange answered: this result is about the old ones.
  if (!tested) throw new IllegalStateError(`The ${name} keys were replaced during the test: test again`);
  deps.logger.info('exchange connection tested', { userId, exchangeId, status: tested.data.status, ...(tested.data.error ? { failure: tested.data.error.kind } : {}) });
  return answer(tested.data, handled.position);
}
