/**
 * Trading bench: `npm run bench:trading`, in the embedded mode (PGlite, in-process bus, the
 * projector and the trading bot in this process) and the cluster mode (PostgreSQL event store and
 * read models, NATS, and command-api, query-api, projectors and workers as separate processes, as
 * the cluster specs start them: test/app-process.ts, test/cluster-support.ts).
 *
 * BOTS users (default 1,000) with premium and an ACTIVE bot (the house demo bot trades too), each with
 * the default risk profile but correlationLimit 1 (issue 17: the bot refuses an entry whose 30-day
 * correlation with an open position is above the limit, and the simulated coins are correlated above
 * the default 0.7, so with it the burst's second BUY would be refused for every bot and the round
 * would wait for trades that cannot come; the refusal path is not what this bench measures). Then
 * signals go into the event store as the signal engine appends them: a burst (BURST_SIGNALS, default
 * 10: BUY on up to five coins, then SELL on the same coins a candle later, so every bot buys within
 * maxConcurrentTrades 5 and sells), then a single BUY. Per round it prints:
 *   - trades/s through the full path: SignalGenerated in the store -> trading bot (two batched loads,
 *     decide, one batched append) -> SimulatedTradePlaced -> projected into `trades`; the trades of
 *     the bench's users / the time from the first signal to the last trade visible;
 *   - per trade, the latency from its signal's append to the trade being visible: the `trades`
 *     projection's checkpoint has passed the trade's event, which is what GET /api/trades with
 *     X-Min-Position waits for (sampled every 2 ms in process, every 5 ms from PostgreSQL);
 *   - in the cluster mode also a probe: one signed-up user among the bots polls GET /api/trades on
 *     query-api until the round's trade is in the answer (the signal -> HTTP answer time of one user).
 * Since issue 17 a bot order fills at the first tick at or after its signal's time plus BOT_LATENCY_MS
 * (domain/src/trading/engine/bot-timing.ts): the bot waits up to 7 s for that tick before it trades. So
 * the rate and the latencies are counted from each signal's fill time (its append, or its fill tick
 * when that came later), the trading path's own work; the `fill wait` column says how long the round
 * waited for its first fill tick, which `all appended` and `all visible` include.
 * Nothing is asserted: it prints numbers.
 *
 * Env: BENCH_MODES (default "embedded,cluster"), BOTS, BURST_SIGNALS (0 skips the burst),
 * BOT_CONCURRENCY and BOT_BATCH_SIZE (embedded only; the cluster's workers run their defaults).
 * A quick run: `BOTS=100 BURST_SIGNALS=2 npm run bench:trading`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { DEFAULT_RISK_PARAMETERS } from '@papertrade/domain/trading/contracts';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import type { SimulatedTradePlaced } from '@papertrade/domain/trading/portfolio';
import type { SignalGeneratedV1 } from '@papertrade/domain/signals/signal';
import { TRADES_PROJECTION } from '@papertrade/domain/trading/trading-view';
import { intendedFillMs, signalTimeMs } from '@papertrade/domain/trading/engine/bot-timing';
import { tradesResponseSchema } from '@papertrade/domain/trading/read-contracts';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import { comparePositions, type Position } from '@papertrade/platform/event-store/position';
import { SqlDocumentStore } from '@papertrade/platform/document-store/sql-document-store';
import { CHECKPOINT_COLLECTION, checkpointId, type Checkpoint } from '@papertrade/platform/projections/read-models';
import { createProjector, createRuntime } from '../bin/compose';
import { DEFAULT_BOT_BATCH_SIZE, DEFAULT_BOT_CONCURRENCY, TradingBot } from '../workers/src/trading-bot';
import { preparePgliteDir } from '../test/pglite';
import { startService, type StartedService } from '../test/app-process';
import { SchemaView, clusterEnv, sendJson } from '../test/cluster-support';
import { dropSchema, postgresClient, uniqueSchema } from '../test/postgres';
import { fmtCount, fmtMs, fmtRate, loadAverage, perSecond, table } from './support/measure';

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
};
const BOTS = envNumber('BOTS', 1000);
const BURST = envNumber('BURST_SIGNALS', 10);
const MODES = (process.env.BENCH_MODES ?? 'embedded,cluster').split(',').map((m) => m.trim());
const COINS = ['ETH', 'BTC', 'BNB', 'SOL', 'ADA'] as const;
const PRICE: Record<string, number> = { ETH: 3000, BTC: 60_000, BNB: 600, SOL: 150, ADA: 0.45, DOT: 6.5 };
const SETUP_BATCH = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const now = () => new Date().toISOString();
const meta = () => ({ actor: 'bench', correlationId: randomUUID() });

/** Premium, an ACTIVE bot and a profile without the correlation limit (see the header) for each user, a hundred users per round trip. */
async function seedBots(handler: CommandHandler, users: string[]): Promise<void> {
  for (let i = 0; i < users.length; i += SETUP_BATCH) {
    const batch = users.slice(i, i + SETUP_BATCH);
    const subs = await handler.loadMany(subscriptionDecider, batch.map((u) => ({ streamId: subscriptionStreamId(u) })));
    const premium = await handler.handleMany(subscriptionDecider, batch.map((userId, j) => ({ streamId: subscriptionStreamId(userId), command: { type: 'ChangeSubscriptionByAdmin' as const, data: { userId, tier: 'PREMIUM' as const, adminId: 'bench' }, metadata: { now: now() } }, meta: meta(), loaded: subs[j]! })));
    const bots = await handler.loadMany(botDecider, batch.map((u) => ({ streamId: botStreamId(u) })));
    const started = await handler.handleMany(botDecider, batch.map((userId, j) => ({ streamId: botStreamId(userId), command: { type: 'StartBot' as const, data: { userId, premium: true }, metadata: { now: now() } }, meta: meta(), loaded: bots[j]! })));
    const risks = await handler.loadMany(riskDecider, batch.map((u) => ({ streamId: riskStreamId(u) })));
    const profiles = await handler.handleMany(riskDecider, batch.map((userId, j) => ({ streamId: riskStreamId(userId), command: { type: 'ChangeRiskParameters' as const, data: { userId, parameters: { ...DEFAULT_RISK_PARAMETERS, correlationLimit: 1 } }, metadata: { now: now() } }, meta: meta(), loaded: risks[j]! })));
    const failed = [...premium, ...started, ...profiles].find((r) => r instanceof Error);
    if (failed) throw failed;
  }
}

/** What a round needs from one mode. */
interface Target {
  eventStore: EventStore;
  /** The `trades` projection's checkpoint. */
  checkpoint(): Position | undefined | Promise<Position | undefined>;
  /** How often the checkpoint is sampled, ms (default 2). */
  sampleMs?: number;
  /** Resolves once the trade of `signalId` is in the probe user's GET /api/trades (cluster only). */
  probe?(signalId: string): Promise<void>;
  /** The trading bot's checkpoint: once it has passed a signal, every trade of that signal is in the store. */
  botCheckpoint(): Promise<Position | undefined>;
}

type Signal = { symbol: string; type: 'BUY' | 'SELL'; candleTime: string };

/** Appends `signals` at once and measures until every bench user's trade of each is visible. */
async function round(target: Target, users: Set<string>, label: string, signals: Signal[]): Promise<string[]> {
  const { eventStore } = target;
  const before = (await eventStore.headPosition())!;
  const expected = users.size * signals.length;
  const appendedAt = new Map<string, number>(); // signalId -> when its signal was appended
  const fillAt = new Map<string, number>(); // signalId -> when its orders could first fill: the append, or the fill tick if later
  // The checkpoint over time; each trade is visible at the first sample whose checkpoint has passed it.
  const samples: Array<{ at: number; checkpoint: Position | undefined }> = [];
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      const checkpoint = await target.checkpoint();
      if (samples.length === 0 || samples[samples.length - 1]!.checkpoint !== checkpoint) samples.push({ at: performance.now(), checkpoint });
      await new Promise((r) => setTimeout(r, target.sampleMs ?? 2));
    }
  })();
  const start = performance.now();
  const probes: Array<Promise<number>> = [];
  const trades: Array<{ position: Position; signalId: string }> = [];
  let botDoneAt = NaN;
  let closedFirst = 0;
  let lastSignal: Position = before;
  try {
    for (const s of signals) {
      const signalId = randomUUID();
      const data: SignalGeneratedV1['data'] = { signalId, symbol: s.symbol, type: s.type, confidence: 80, price: PRICE[s.symbol]!, candleTime: s.candleTime, reasons: [] };
      const at = performance.now();
      const recordedAt = now();
      appendedAt.set(signalId, at);
      fillAt.set(signalId, at + Math.max(0, intendedFillMs(signalTimeMs(s.candleTime, recordedAt)) - Date.parse(recordedAt)));
      lastSignal = (await eventStore.append(`signals-${s.symbol}`, [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: recordedAt, schemaVersion: 1 } }], 'any')).position;
      if (target.probe) probes.push(target.probe(signalId).then(() => performance.now() - at));
    }
    let after: Position = before;
    // A position the risk monitor closed (its stop or target hit while the round ran) leaves its bot
    // nothing to sell: that SELL signal has no trade to wait for.
    const sold = new Set(signals.filter((s) => s.type === 'SELL').map((s) => s.symbol));
    // Fewer trades than that come when the bot skipped some (a workers process's own signal engine
    // appends signals of its own meanwhile: their BUYs can fill a bot's maximum of open trades, and a
    // SELL then finds nothing held): the round also ends once the bot has handled its last signal
    // (its checkpoint passed it, so every trade of the round is in the store) and the store is read
    // to its head.
    let botDone = false;
    for (;;) {
      if (trades.length >= expected - closedFirst) break;
      if (performance.now() - start > 900_000) throw new Error(`only ${trades.length} of ${expected - closedFirst} trades after 15 minutes`);
      const passed = comparePositions(await target.botCheckpoint(), lastSignal) >= 0;
      const batch = await eventStore.readAll({ after, limit: 1000 });
      if (batch.length === 0 && botDone) break;
      botDone = passed;
      for (const event of batch) {
        after = event.position;
        if (event.type === 'PositionClosed') {
          const closed = event.data as { userId: string; symbol: string };
          if (users.has(closed.userId) && sold.has(closed.symbol)) closedFirst++;
          continue;
        }
        if (event.type !== 'SimulatedTradePlaced') continue;
        const data = event.data as SimulatedTradePlaced['data'];
        if (data.source.kind === 'SIGNAL' && appendedAt.has(data.source.signalId) && users.has(data.userId)) trades.push({ position: event.position, signalId: data.source.signalId });
      }
      if (batch.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    botDoneAt = performance.now();
    const last = trades.reduce((m, t) => (comparePositions(t.position, m) > 0 ? t.position : m), trades[0]!.position);
    while (comparePositions(samples[samples.length - 1]?.checkpoint, last) < 0) {
      if (performance.now() - start > 900_000) throw new Error('the trades projection did not catch up in 15 minutes');
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    // Also when the round fails: a watcher left reading a store the caller then closes would crash the
    // process with "Cannot use a pool after calling end on the pool" and hide the round's own error.
    watching = false;
    await watcher.catch(() => {});
  }
  const probeMs = await Promise.all(probes);
  const latencies: number[] = [];
  let lastVisible = 0;
  const ordered = trades.slice().sort((a, b) => comparePositions(a.position, b.position));
  let i = 0;
  for (const trade of ordered) {
    while (i < samples.length && comparePositions(samples[i]!.checkpoint, trade.position) < 0) i++;
    const visibleAt = samples[i]!.at;
    latencies.push(visibleAt - fillAt.get(trade.signalId)!);
    lastVisible = Math.max(lastVisible, visibleAt);
  }
  const firstFill = Math.min(...fillAt.values());
  const elapsed = lastVisible - firstFill;
  const sorted = latencies.slice().sort((x, y) => x - y);
  const skipped = expected - closedFirst - trades.length;
  const notes = [closedFirst > 0 ? `${fmtCount(closedFirst)} stops first` : null, skipped > 0 ? `${fmtCount(skipped)} skipped by the bot` : null].filter((n) => n !== null);
  return [
    notes.length > 0 ? `${label} (${notes.join(', ')})` : label,
    fmtCount(latencies.length),
    fmtMs(firstFill - start),
    fmtMs(botDoneAt - start),
    fmtMs(lastVisible - start),
    fmtRate(perSecond(latencies.length, elapsed)),
    fmtMs(percentile(sorted, 50)),
    fmtMs(percentile(sorted, 99)),
    fmtMs(sorted[sorted.length - 1]!),
    probeMs.length ? probeMs.map(fmtMs).join(', ') : '-',
  ];
}

/** The burst, then one signal, at candle times after every closed candle (newer than any trade). */
async function rounds(target: Target, users: Set<string>): Promise<string[][]> {
  const candle = Math.floor(Date.now() / 300_000) * 300_000;
  const at = (ms: number) => new Date(ms).toISOString();
  const coins = COINS.slice(0, Math.max(1, Math.ceil(BURST / 2)));
  const rows: string[][] = [];
  if (BURST > 0) {
    const buys = coins.map((symbol) => ({ symbol, type: 'BUY' as const, candleTime: at(candle + 1000) }));
    const sells = coins.map((symbol) => ({ symbol, type: 'SELL' as const, candleTime: at(candle + 2000) }));
    rows.push(await round(target, users, `burst: ${BURST} signals`, [...buys, ...sells].slice(0, Math.max(BURST, 1))));
  }
  rows.push(await round(target, users, 'one signal', [{ symbol: 'DOT', type: 'BUY', candleTime: at(candle + 3000) }]));
  return rows;
}

const HEADER = ['round', 'trades', 'fill wait', 'all appended', 'all visible', 'trades/s', 'p50 fill->visible', 'p99 fill->visible', 'max', 'probe: GET /api/trades'];

async function embedded(): Promise<void> {
  const concurrency = envNumber('BOT_CONCURRENCY', 2); // as bin/compose.ts runs the bot on PGlite
  const batchSize = envNumber('BOT_BATCH_SIZE', DEFAULT_BOT_BATCH_SIZE);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-bench-trading-'));
  await preparePgliteDir(path.join(dataDir, 'pglite'));
  const rt = await createRuntime('bench', { embedded: true, env: { DATA_DIR: dataDir, DEMO_SEED: 'off', LOG: 'off', JWT_SECRET: 'bench-secret-bench-secret-bench-secret!!' } });
  const projector = createProjector(rt);
  await projector.start();
  const handler = new CommandHandler(rt.infra.eventStore, rt.clock);
  const setupStart = performance.now();
  const users = Array.from({ length: BOTS }, () => randomUUID());
  await seedBots(handler, users);
  await projector.caughtUp();
  // A running app's market feed reads the path every 5 s, so its caches are warm; a fresh process
  // pays about 0.4 s to compute the daily levels since 2020 on its first quote.
  await rt.marketData.quotesAt(Date.now());
  console.log(`embedded setup: ${fmtCount(BOTS)} premium users with an ACTIVE bot in ${fmtMs(performance.now() - setupStart)}`);

  const { eventStore, documents, leases, readModels } = rt.infra;
  const bot = new TradingBot({
    eventStore,
    documents,
    leases,
    readModels,
    handler,
    marketData: rt.marketData,
    clock: rt.clock,
    logger: rt.logger,
    concurrency,
    batchSize,
  });
  await bot.start();
  await bot.follower.reached(await eventStore.headPosition());
  const rows = await rounds({ eventStore, checkpoint: () => projector.positions()[TRADES_PROJECTION], botCheckpoint: async () => (bot.status().checkpoint ?? undefined) as Position | undefined }, new Set(users));
  const status = bot.status();
  console.log(`\ntrading bench, embedded (PGlite, in-process bus): ${fmtCount(BOTS)} active bots + the house bot, worker ${concurrency} batches of ${batchSize} at once; load ${loadAverage()}`);
  console.log(table(HEADER, rows));
  console.log(`worker: placed ${status.tradesPlaced}, skipped ${JSON.stringify(status.skipped)}, refused ${status.refused}, failures ${status.failures}`);
  await bot.stop();
  await projector.stop();
  await rt.infra.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function cluster(): Promise<void> {
  const schema = uniqueSchema('benchtrading');
  const env = clusterEnv(schema, { LOG: process.env.BENCH_LOG ?? 'off' });
  const running: StartedService[] = [];
  const view = await SchemaView.open(schema);
  const sql = postgresClient(schema, 2);
  const documents = await SqlDocumentStore.create(sql, { schema });
  try {
    const setupStart = performance.now();
    for (const service of ['command-api', 'query-api', 'projectors', 'workers']) running.push(await startService('bin/start-service.ts', [service], env));
    const [commandApi, queryApi, , workers] = running as [StartedService, StartedService, StartedService, StartedService];
    // The workers' signal engine evaluates every coin at start; the bots are seeded after its round
    // and the trading bot has handled those signals, so only the bench's signals reach them.
    for (const deadline = Date.now() + 60_000; ; ) {
      const health = (await (await fetch(`${workers.url}/api/health`)).json()) as { workers: Array<Record<string, unknown>> };
      const engine = health.workers.find((w) => w.name === 'signal-engine');
      const bot = health.workers.find((w) => w.name === 'trading-bot');
      if (Number(engine?.evaluations) >= 10 && bot?.following === true) break;
      if (Date.now() > deadline) throw new Error(`the workers did not start: ${JSON.stringify(health)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const events = view.events;
    const handler = new CommandHandler(events, () => new Date());
    // The probe: a real account among the bots, reading its trades through query-api. A PostgreSQL
    // server at max_connections (other suites on it) refuses the fresh command-api's first connections:
    // 503 with Retry-After (it was a 500 before). Tried thrice, a second apart; with BENCH_LOG=on a
    // failed attempt prints the service's last warnings and errors.
    let email = '';
    let signup: Awaited<ReturnType<typeof sendJson>> | undefined;
    for (let attempt = 1; attempt <= 3 && signup?.status !== 201; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, 1000));
      email = `probe-${randomUUID().slice(0, 8)}@example.com`;
      signup = await sendJson('POST', `${commandApi.url}/api/auth/signup`, { email, username: `probe${randomUUID().slice(0, 8)}`, password: 'bench-pass-1', confirmPassword: 'bench-pass-1' });
      if (signup.status !== 201) console.warn(`probe signup attempt ${attempt}: ${signup.status} ${JSON.stringify(signup.body)}\n${commandApi.output().split('\n').filter((l) => /"level":"(error|warn)"/.test(l)).slice(-5).join('\n')}`);
    }
    if (signup?.status !== 201) throw new Error(`probe signup failed\n${commandApi.output().slice(-3000)}`);
    const probeUser = String(signup.body.userId);
    const users = [probeUser, ...Array.from({ length: Math.max(0, BOTS - 1) }, () => randomUUID())];
    await seedBots(handler, users);
    const head = await events.headPosition();
    const checkpoints = documents.collection<Checkpoint>(CHECKPOINT_COLLECTION);
    const checkpoint = async () => (await checkpoints.get(checkpointId(TRADES_PROJECTION, 1)))?.position as Position | undefined;
    while (comparePositions(await checkpoint(), head) < 0) await new Promise((r) => setTimeout(r, 50));
    const login = await sendJson('POST', `${commandApi.url}/api/auth/login`, { email, password: 'bench-pass-1' });
    if (login.status !== 200) throw new Error(`probe login: ${login.status} ${JSON.stringify(login.body)}`);
    const token = String(login.body.token);
    console.log(`cluster setup: 4 services and ${fmtCount(BOTS)} premium users with an ACTIVE bot in ${fmtMs(performance.now() - setupStart)}`);

    // One poll loop per round (every 50 ms, not one per signal: the polls must not load the machine
    // they measure); each signal's time is when its trade first shows in the answer.
    const seen = new Map<string, number>();
    const waiting = new Map<string, Array<() => void>>();
    let polling: Promise<void> | undefined;
    const poll = async () => {
      for (const deadline = Date.now() + 900_000; waiting.size > 0 && Date.now() < deadline; ) {
        const res = await fetch(`${queryApi.url}/api/trades?pageSize=100`, { headers: { authorization: `Bearer ${token}` } });
        const body: unknown = await res.json();
        if (res.ok) {
          for (const t of tradesResponseSchema.parse(body).trades) {
            if (!t.signalId || seen.has(t.signalId)) continue;
            seen.set(t.signalId, performance.now());
            for (const resolve of waiting.get(t.signalId) ?? []) resolve();
            waiting.delete(t.signalId);
          }
        }
        if (waiting.size > 0) await new Promise((r) => setTimeout(r, 50));
      }
      polling = undefined;
    };
    const probe = (signalId: string) =>
      new Promise<void>((resolve) => {
        waiting.set(signalId, [...(waiting.get(signalId) ?? []), resolve]);
        polling ??= poll();
      });
    const botCheckpoint = async (): Promise<Position | undefined> => {
      const health = (await (await fetch(`${workers.url}/api/health`)).json()) as { workers: Array<Record<string, unknown>> };
      const checkpoint = health.workers.find((w) => w.name === 'trading-bot')?.checkpoint;
      return typeof checkpoint === 'string' ? (checkpoint as Position) : undefined;
    };
    const rows = await rounds({ eventStore: events, checkpoint, probe, sampleMs: 5, botCheckpoint }, new Set(users));
    const health = (await (await fetch(`${workers.url}/api/health`)).json()) as { workers: Array<Record<string, unknown>> };
    const bot = health.workers.find((w) => w.name === 'trading-bot')!;
    console.log(`\ntrading bench, cluster (PostgreSQL, NATS, 4 service processes): ${fmtCount(BOTS)} active bots + the house bot, worker ${DEFAULT_BOT_CONCURRENCY} batches of ${DEFAULT_BOT_BATCH_SIZE} at once; load ${loadAverage()}`);
    console.log(table(HEADER, rows));
    console.log(`worker: placed ${String(bot.tradesPlaced)}, skipped ${JSON.stringify(bot.skipped)}, refused ${String(bot.refused)}, failures ${String(bot.failures)} (last: ${String(bot.lastError)}), signals ${String(bot.signals)}`);
  } finally {
    for (const p of running.reverse()) await p.stop();
    await view.close();
    await sql.close();
    await dropSchema(schema);
  }
}

async function main() {
  for (const mode of MODES) {
    if (mode === 'embedded') await embedded();
    else if (mode === 'cluster') await cluster();
    else throw new Error(`unknown mode ${mode} (BENCH_MODES: embedded, cluster)`);
  }
  console.log(
    "\n(visible: the trades projection has passed the trade, what GET /api/trades with X-Min-Position waits for; fill wait: from the first signal's append to its fill tick; trades/s: the bench users' trades / time from the first fill time to the last visible; fill->visible: from a signal's fill time (its append, or its fill tick if later) to its trade visible; probe: one user polling GET /api/trades, from the append)",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
