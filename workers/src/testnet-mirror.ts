/**
 * Mirror to testnet (issue 21): a process manager that follows the bot's paper trades
 * (SimulatedTradePlaced with a signal source, checkpoint `testnet-mirror`) and, for each exchange
 * where the trader has a connected testnet account with the mirror on (the `exchange-connections`
 * read model, `{userId, mirrorToTestnet: true}`; the decider decides again on the stream), sends the
 * same trade as a market order to the testnet and records the testnet's fill beside the paper one
 * on `exchange-{userId}-{exchangeId}`, so Trade History shows how far the simulation is from a book.
 *
 * Never twice: MirrorOrderRequested is appended (idempotency key `request:{exchange}:{tradeId}`)
 * before the order goes out; a replay that finds it (a crash between the order and its outcome, a
 * restart, a second instance) does not send the order again but records the outcome as unknown
 * (`outcome:{exchange}:{tradeId}`, which also appends nothing when the outcome was recorded). The
 * exchange gets a client order id derived from the trade, so its own records name the trade too.
 * Trades older than MAX_TRADE_AGE_MS when handled (a replayed history, a worker down for an hour)
 * and trades from before the mirror was switched on are not mirrored. The paper trade, the bot and
 * the engine are untouched: this only follows their events.
 */
import { exchangeStreamId, mirrorClientOrderId, type ConnectionFailure } from '@papertrade/domain/exchanges/exchange';
import { exchangeDecider, type RecordMirrorOutcome } from '@papertrade/domain/exchanges/exchange.decider';
import { EXCHANGE_CONNECTIONS_PROJECTION, type ExchangeConnectionView } from '@papertrade/domain/exchanges/exchange-view';
import { exchangeInfo, type ExchangeId } from '@papertrade/domain/exchanges/exchanges';
import type { SimulatedTradePlaced } from '@papertrade/domain/trading/portfolio';
import type { CommandHandler, CommandMeta } from '@papertrade/platform/commands/command-handler';
import type { RecordedEvent } from '@papertrade/platform/event-store/event-store';
import type { ExchangeGateway } from '@papertrade/platform/exchanges/exchange-gateway';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { SecretDecryptionError } from '@papertrade/platform/secrets/secret-box';
import type { SecretVault } from '@papertrade/platform/secrets/secret-vault';
import { EventFollower, type EventFollowerDeps } from './event-follower';

export const TESTNET_MIRROR_ACTOR = 'testnet-mirror';
/** A paper trade older than this when handled is not mirrored: the testnet's book has moved on. */
export const MAX_TRADE_AGE_MS = 15 * 60 * 1000;

export interface TestnetMirrorDeps extends EventFollowerDeps {
  readModels: ReadModels;
  handler: CommandHandler;
  secrets: () => SecretVault;
  gateway: ExchangeGateway;
  clock: () => Date;
}

export interface TestnetMirrorStatus {
  name: 'testnet-mirror';
  running: boolean;
  following: boolean;
  checkpoint: string | null;
  handled: number;
  failures: number;
  lastError: string | null;
  botTrades: number;
  ordersSent: number;
  filled: number;
  failed: number;
  notResent: number;
  tooOld: number;
}

const isBotTrade = (event: RecordedEvent) => event.type === 'SimulatedTradePlaced' && (event.data as { source?: { kind?: string } }).source?.kind === 'SIGNAL';

export class TestnetMirror {
  readonly follower: EventFollower;
  private running = false;
  private readonly counts = { botTrades: 0, ordersSent: 0, filled: 0, failed: 0, notResent: 0, tooOld: 0 };

  constructor(private readonly deps: TestnetMirrorDeps) {
    this.follower = new EventFollower('testnet-mirror', deps, isBotTrade, (e) => this.onTrade(e));
  }

  async start(): Promise<void> {
    this.running = true;
    await this.follower.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.follower.stop();
  }

  status(): TestnetMirrorStatus {
    return { name: 'testnet-mirror', running: this.running, ...this.follower.status(), ...this.counts };
  }

  private async onTrade(event: RecordedEvent): Promise<void> {
    const trade = event.data as SimulatedTradePlaced['data'];
    this.counts.botTrades++;
    const connections = await (await this.deps.readModels.collection<ExchangeConnectionView>(EXCHANGE_CONNECTIONS_PROJECTION)).find({ where: { userId: trade.userId, mirrorToTestnet: true } });
    if (connections.length === 0) return;
    if (this.deps.clock().getTime() - Date.parse(trade.placedAt) > MAX_TRADE_AGE_MS) {
      this.counts.tooOld++;
      return;
    }
    for (const connection of connections) {
      if (exchangeInfo(connection.exchangeId).testnet) await this.mirror(trade, connection.exchangeId, event);
    }
  }

  private meta(key: string, trade: SimulatedTradePlaced['data'], event: RecordedEvent): CommandMeta {
    return { actor: TESTNET_MIRROR_ACTOR, correlationId: trade.tradeId, causationId: event.id, idempotency: { scope: TESTNET_MIRROR_ACTOR, key, requestHash: key } };
  }

  private async mirror(trade: SimulatedTradePlaced['data'], exchangeId: ExchangeId, event: RecordedEvent): Promise<void> {
    const { handler } = this.deps;
    const stream = exchangeStreamId(trade.userId, exchangeId);
    const info = exchangeInfo(exchangeId);
    const requestMeta = this.meta(`request:${exchangeId}:${trade.tradeId}`, trade, event);
    const outcomeMeta = this.meta(`outcome:${exchangeId}:${trade.tradeId}`, trade, event);
    const loaded = await handler.load(exchangeDecider, stream, requestMeta);
    const intent = {
      tradeId: trade.tradeId,
      market: `${trade.symbol}/${info.quote}`,
      side: trade.side,
      amount: trade.quantity,
      paperPrice: trade.price,
      clientOrderId: mirrorClientOrderId(exchangeId, trade.userId, trade.tradeId),
      paperPlacedAt: trade.placedAt,
    };
    const requested = await handler.handle(
      exchangeDecider,
      stream,
      { type: 'RequestMirrorOrder', data: { userId: trade.userId, exchangeId, ...intent }, metadata: { now: handler.now() } },
      requestMeta,
      loaded,
    );
    if (requested.events.length === 0) return;
    const record = (outcome: RecordMirrorOutcome['data']['outcome']) =>
      handler.handle(exchangeDecider, stream, { type: 'RecordMirrorOutcome', data: { userId: trade.userId, exchangeId, tradeId: trade.tradeId, outcome }, metadata: { now: handler.now() } }, outcomeMeta);
    const failure = (error: ConnectionFailure) => ({ ok: false as const, error });
    if (requested.replayed) {
      // Requested before: the order may have gone out. Never send it twice (appends nothing when its outcome is recorded).
      const result = await record(failure({ kind: 'exchange', message: 'Not sent again: an earlier attempt was interrupted, and whether the testnet filled it is unknown' }));
      if (!result.replayed) this.counts.notResent++;
      return;
    }
    const secretRef = loaded.state.credentials?.secretRef;
    let credentials;
    try {
      credentials = secretRef ? await this.deps.secrets().read(secretRef, trade.userId, exchangeId) : undefined;
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
    }
    if (!credentials) {
      await record(failure({ kind: 'exchange', message: `The ${info.name} keys stored for this account cannot be read: save them again` }));
      this.counts.failed++;
      return;
    }
    this.counts.ordersSent++;
    const result = await this.deps.gateway.createMarketOrder(exchangeId, credentials, { testnet: true }, { market: intent.market, side: intent.side, amount: intent.amount, clientOrderId: intent.clientOrderId });
    if (result.ok) {
      const { orderId, price, amount, cost, fee } = result;
      await record({ ok: true, orderId, price, amount, cost, fee });
      this.counts.filled++;
    } else {
      await record(result);
      this.counts.failed++;
    }
    this.deps.logger.info('bot trade mirrored to testnet', { userId: trade.userId, tradeId: trade.tradeId, exchangeId, outcome: result.ok ? 'filled' : result.error.kind });
  }
}
