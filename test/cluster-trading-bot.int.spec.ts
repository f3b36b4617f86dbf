/**
 * The trading bot across a real crash (issue 8, "a signal ... becomes exactly one trade even when the
 * worker is killed and restarted midway"): the workers process trades one signal for many ACTIVE
 * premium bots on PostgreSQL, is killed with SIGKILL once some of the trades are in the event store
 * and others are not, and a new workers process finishes the signal. Every bot ends with exactly one
 * trade of that signal, under the id derived from the signal and the user. (The worker's own spec,
 * workers/src/trading-bot.int.spec.ts, makes a handler die at a chosen point in process; this one
 * kills the process wherever it happens to be.)
 *
 * The workers' own signal engine runs too: a candle closing while the bots are set up gives signals
 * the bots trade first, so a bot may already hold ETH or its maximum of positions when the test's
 * signal comes, and the bot then records a refusal instead of a trade (decided once, as a trade is).
 * So each bot ends with exactly one outcome of the signal, a trade under the derived id or a recorded
 * refusal, never two.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { TRADING_BOTS_PROJECTION, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import { tradeIdFor } from '@papertrade/domain/trading/bot-trade-decision';
import { HOUSE_DEMO_USER_ID } from '@papertrade/domain/trading/house-demo';
import { signalsStreamId, type SignalGeneratedV1 } from '@papertrade/domain/signals/signal';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { PostgresClient } from '@papertrade/platform/sql/sql-client';
import { startService, type StartedService } from './app-process';
import { clusterEnv, SchemaView } from './cluster-support';
import { dropSchema, postgresClient, uniqueSchema } from './postgres';
import { requireServices } from './services';
import { waitUntil } from './wait';

/** Enough bots that their trades take the worker many batches (of 100) and round trips. */
const BOTS = 2000;
const SETUP_BATCH = 100;

describe('local cluster: the trading bot killed (SIGKILL) midway through a signal, then restarted (PostgreSQL + NATS)', function () {
  this.timeout(480_000);
  let schema: string;
  let env: Record<string, string>;
  let view: SchemaView;
  let sql: PostgresClient;
  const running: StartedService[] = [];

  before(async function () {
    await requireServices(this, 'postgres', 'nats');
    schema = uniqueSchema('botkill');
    env = clusterEnv(schema);
    running.push(await startService('bin/start-service.ts', ['projectors'], env));
    view = await SchemaView.open(schema);
    sql = postgresClient(schema, 1);
  });

  after(async function () {
    for (const p of [...running].reverse()) await p.stop();
    await view?.close();
    await sql?.close();
    if (schema) await dropSchema(schema);
  });

  async function workersStarted(): Promise<StartedService> {
    const workers = await startService('bin/start-service.ts', ['workers'], env);
    running.push(workers);
    // The signal engine evaluates every coin at start; the bot follows the store once it is going.
    await waitUntil(
      async () => {
        const health = (await (await fetch(`${workers.url}/api/health`)).json()) as { workers: Array<Record<string, unknown>> };
        const engine = health.workers.find((w) => w.name === 'signal-engine');
        const bot = health.workers.find((w) => w.name === 'trading-bot');
        return Number(engine?.evaluations) >= 10 && bot?.following === true;
      },
      { timeoutMs: 60_000, message: 'the workers to start' },
    );
    return workers;
  }

  /** The users (not the house demo) the bot refused `signalId` for, one entry per recorded refusal. */
  async function refusedFor(signalId: string): Promise<string[]> {
    const rows = await sql.query<{ userId: string }>(`SELECT data->>'userId' AS "userId" FROM events WHERE type = 'BotSignalRefused' AND data->>'signalId' = $1 AND data->>'userId' <> $2`, [signalId, HOUSE_DEMO_USER_ID]);
    return rows.map((r) => r.userId);
  }

  /** The users (not the house demo) with a trade of `signalId`, one entry per trade. */
  async function tradersOf(signalId: string): Promise<Array<{ userId: string; tradeId: string }>> {
    return sql.query<{ userId: string; tradeId: string }>(
      `SELECT data->>'userId' AS "userId", data->>'tradeId' AS "tradeId" FROM events
        WHERE type = 'SimulatedTradePlaced' AND data->'source'->>'signalId' = $1 AND data->>'userId' <> $2`,
      [signalId, HOUSE_DEMO_USER_ID],
    );
  }

  it(`${BOTS} bots: each trades the signal (or records its refusal) exactly once although the worker died with some of the trades placed`, async function () {
    const first = await workersStarted();

    // BOTS premium users with an ACTIVE bot, as the commands would leave them.
    const handler = new CommandHandler(view.events, () => new Date());
    const users = Array.from({ length: BOTS }, () => randomUUID());
    const now = () => new Date().toISOString();
    const meta = () => ({ actor: 'test', correlationId: randomUUID() });
    for (let i = 0; i < users.length; i += SETUP_BATCH) {
      const batch = users.slice(i, i + SETUP_BATCH);
      const subscriptions = await handler.loadMany(subscriptionDecider, batch.map((userId) => ({ streamId: subscriptionStreamId(userId) })));
      const premium = await handler.handleMany(
        subscriptionDecider,
        batch.map((userId, j) => ({
          streamId: subscriptionStreamId(userId),
          command: { type: 'ChangeSubscriptionByAdmin' as const, data: { userId, tier: 'PREMIUM' as const, adminId: 'test' }, metadata: { now: now() } },
          meta: meta(),
          loaded: subscriptions[j]!,
        })),
      );
      const loadedBots = await handler.loadMany(botDecider, batch.map((userId) => ({ streamId: botStreamId(userId) })));
      const started = await handler.handleMany(
        botDecider,
        batch.map((userId, j) => ({ streamId: botStreamId(userId), command: { type: 'StartBot' as const, data: { userId, premium: true }, metadata: { now: now() } }, meta: meta(), loaded: loadedBots[j]! })),
      );
      const failed = [...premium, ...started].find((r) => r instanceof Error);
      if (failed) throw failed;
    }
    const bots = await view.readModels.collection<TradingBotView>(TRADING_BOTS_PROJECTION);
    await waitUntil(async () => (await bots.count({ status: 'ACTIVE', premium: true })) === BOTS, { timeoutMs: 120_000, message: 'the trading-bots projection to list every bot' });

    // A BUY signal, as the signal engine appends it; killed as soon as its first trades are in.
    const signalId = randomUUID();
    const candleTime = new Date(Math.floor(Date.now() / 300_000) * 300_000 - 300_000).toISOString();
    const data: SignalGeneratedV1['data'] = { signalId, symbol: 'ETH', type: 'BUY', confidence: 80, price: 3000, candleTime, reasons: [] };
    await view.events.append(
      signalsStreamId('ETH'),
      [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: now(), schemaVersion: 1 } }],
      'any',
    );
    const outcomes = async () => (await tradersOf(signalId)).length + (await refusedFor(signalId)).length;
    await waitUntil(async () => (await outcomes()) > 0, { timeoutMs: 60_000, intervalMs: 5, message: 'the first trades (or refusals) of the signal' });
    await first.kill();
    running.splice(running.indexOf(first), 1);
    const placedBeforeTheKill = (await tradersOf(signalId)).length;
    const decidedBeforeTheKill = await outcomes();
    expect(decidedBeforeTheKill, 'killed midway: some outcomes recorded, not all').to.be.above(0).and.below(BOTS);

    const second = await workersStarted();
    const { trades, refused } = await waitUntil(
      async () => {
        const [found, refusals] = await Promise.all([tradersOf(signalId), refusedFor(signalId)]);
        return found.length + refusals.length >= BOTS ? { trades: found, refused: refusals } : undefined;
      },
      { timeoutMs: 300_000, message: 'the restarted worker to finish the signal' },
    ).catch(async (error: unknown) => {
      // What the restarted worker says it did (skips, refusals, its follower's last error) and its log.
      const health = await (await fetch(`${second.url}/api/health`)).text().catch((e: unknown) => String(e));
      const placed = (await tradersOf(signalId)).length;
      const refusals = (await refusedFor(signalId)).length;
      throw new Error(`${error instanceof Error ? error.message : String(error)}; ${placed} of ${BOTS} placed, ${refusals} refused; health ${health}; log ${second.output().slice(-4000)}`);
    });
    // Exactly one outcome per bot: a trade under the id derived from the signal and the user, or a refusal; none twice.
    expect(trades.length + refused.length, 'one outcome per bot, none twice').to.equal(BOTS);
    const byUser = new Map(trades.map((t) => [t.userId, t.tradeId]));
    expect(byUser.size, 'no bot traded twice').to.equal(trades.length);
    const refusedUsers = new Set(refused);
    expect(refusedUsers.size, 'no refusal recorded twice').to.equal(refused.length);
    for (const userId of users) {
      if (byUser.has(userId)) expect(byUser.get(userId), userId).to.equal(tradeIdFor(signalId, userId));
      else expect(refusedUsers.has(userId), `${userId}: neither traded nor refused`).to.equal(true);
    }
    console.log(`      (${decidedBeforeTheKill} of ${BOTS} outcomes, ${placedBeforeTheKill} of them trades, were in when the worker was killed; ${trades.length} trades, ${refused.length} refusals)`);
  });
});
