/**
 * Trading bench, embedded mode (PGlite, in-process bus, everything in this process):
 * `npm run bench:trading`.
 *
 * 1,000 users with an ACTIVE bot and premium (plus the house demo bot), the projector and the
 * trading bot worker running. Then a burst of signals goes into the event store at once, as the
 * signal engine would append them: BUY on five coins, then SELL on the same five (later candles),
 * so every bot places ten trades (five buys within maxConcurrentTrades 5, five sells). Measured:
 *   - trades/s through the full path: SignalGenerated in the store -> trading bot (the read model
 *     query, two folds, decide, append) -> SimulatedTradePlaced -> projected; from the first signal
 *     appended to the last trade visible;
 *   - per trade, the latency from its signal's append to the trade being visible in a read model:
 *     the projection checkpoint has passed the trade's event. The read model is `open-positions`
 *     (this branch's; the `trades` projection of GET /api/trades is another branch's, so not here):
 *     both are written by the same projector from the same events, so the figure is the same path.
 * Nothing is asserted: it prints numbers. BOT_CONCURRENCY (default 2, as embedded) and BOTS are env.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import type { SimulatedTradePlaced } from '@papertrade/domain/trading/portfolio';
import type { SignalGenerated } from '@papertrade/domain/signals/signal';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { comparePositions, type Position } from '@papertrade/platform/event-store/position';
import { OPEN_POSITIONS_PROJECTION } from '@papertrade/domain/trading/open-positions-view';
import { createProjector, createRuntime } from '../bin/compose';
import { TradingBot } from '../workers/src/trading-bot';
import { preparePgliteDir } from '../test/pglite';
import { fmtCount, fmtMs, fmtRate, loadAverage, perSecond, runConcurrent, table } from './support/measure';

const BOTS = Number(process.env.BOTS ?? 1000);
// As bin/compose.ts runs the bot on PGlite (the embedded mode).
const CONCURRENCY = Number(process.env.BOT_CONCURRENCY ?? 2);
const COINS = ['ETH', 'BTC', 'BNB', 'SOL', 'ADA'] as const;
const PRICE: Record<(typeof COINS)[number], number> = { ETH: 3000, BTC: 60_000, BNB: 600, SOL: 150, ADA: 0.45 };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'papertrade-bench-trading-'));
  await preparePgliteDir(path.join(dataDir, 'pglite'));
  const rt = await createRuntime('bench', { embedded: true, env: { DATA_DIR: dataDir, DEMO_SEED: 'off', LOG: 'off', JWT_SECRET: 'bench-secret-bench-secret-bench-secret!!' } });
  const projector = createProjector(rt);
  await projector.start();
  const handler = new CommandHandler(rt.infra.eventStore, rt.clock);
  const now = () => new Date().toISOString();
  const meta = () => ({ actor: 'bench', correlationId: randomUUID() });

  const setupStart = performance.now();
  const users = Array.from({ length: BOTS }, () => randomUUID());
  await runConcurrent(BOTS, 8, async (i) => {
    const userId = users[i]!;
    await handler.handle(subscriptionDecider, subscriptionStreamId(userId), { type: 'ChangeSubscriptionByAdmin', data: { userId, tier: 'PREMIUM', adminId: 'bench' }, metadata: { now: now() } }, meta());
    await handler.handle(botDecider, botStreamId(userId), { type: 'StartBot', data: { userId, premium: true }, metadata: { now: now() } }, meta());
  });
  await projector.caughtUp();
  console.log(`setup: ${fmtCount(BOTS)} premium users with an ACTIVE bot in ${fmtMs(performance.now() - setupStart)}`);

  const { eventStore, documents, leases, readModels } = rt.infra;
  const bot = new TradingBot({
    eventStore,
    documents,
    leases,
    readModels,
    handler,
    marketData: { prices: async () => COINS.map((symbol) => ({ symbol, price: PRICE[symbol], coinId: 'x', change24h: null, changePercent24h: null, volume24h: null, at: now() })) as never },
    clock: rt.clock,
    logger: rt.logger,
    concurrency: CONCURRENCY,
  });
  await bot.start();
  await bot.follower.reached(await eventStore.headPosition());

  const candle = Math.floor(Date.now() / 300_000) * 300_000;
  const at = (ms: number) => new Date(ms).toISOString();
  const rows: string[][] = [];

  /** Appends `signals` at once; every bot and the house bot trade each; measured until all are visible. */
  async function round(label: string, signals: Array<{ symbol: (typeof COINS)[number] | 'DOT'; type: 'BUY' | 'SELL'; candleTime: string; price: number }>) {
    const before = (await eventStore.headPosition())!;
    const expected = (BOTS + 1) * signals.length;
    const appendedAt = new Map<string, number>(); // signalId -> when its signal was appended
    // The projection's checkpoint over time (sampled every 2 ms); each trade is visible at the first
    // sample whose checkpoint has passed its event.
    const samples: Array<{ at: number; checkpoint: Position | undefined }> = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const checkpoint = projector.positions()[OPEN_POSITIONS_PROJECTION];
        if (samples.length === 0 || samples[samples.length - 1]!.checkpoint !== checkpoint) samples.push({ at: performance.now(), checkpoint });
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const start = performance.now();
    for (const s of signals) {
      const signalId = randomUUID();
      const data: SignalGenerated['data'] = { signalId, symbol: s.symbol, type: s.type, confidence: 80, price: s.price, candleTime: s.candleTime, reasons: [] };
      appendedAt.set(signalId, performance.now());
      await eventStore.append(`signals-${s.symbol}`, [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: now(), schemaVersion: 1 } }], 'any');
    }
    const trades: Array<{ position: Position; signalId: string }> = [];
    let after: Position = before;
    while (trades.length < expected) {
      if (performance.now() - start > 900_000) throw new Error(`only ${trades.length} of ${expected} trades after 15 minutes`);
      const batch = await eventStore.readAll({ after, limit: 1000 });
      for (const event of batch) {
        after = event.position;
        const source = event.type === 'SimulatedTradePlaced' ? (event.data as SimulatedTradePlaced['data']).source : null;
        if (source?.kind === 'SIGNAL') trades.push({ position: event.position, signalId: source.signalId });
      }
      if (batch.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    const botDoneAt = performance.now();
    await projector.caughtUp();
    await new Promise((r) => setTimeout(r, 10));
    watching = false;
    await watcher;
    const latencies: number[] = [];
    let lastVisible = 0;
    let i = 0;
    for (const trade of trades) {
      while (i < samples.length && comparePositions(samples[i]!.checkpoint, trade.position) < 0) i++;
      const visibleAt = samples[i]!.at;
      latencies.push(visibleAt - appendedAt.get(trade.signalId)!);
      lastVisible = Math.max(lastVisible, visibleAt);
    }
    const elapsed = lastVisible - start;
    const sorted = latencies.slice().sort((x, y) => x - y);
    rows.push([
      label,
      fmtCount(latencies.length),
      fmtMs(botDoneAt - start),
      fmtMs(elapsed),
      fmtRate(perSecond(latencies.length, elapsed)),
      fmtMs(percentile(sorted, 50)),
      fmtMs(percentile(sorted, 99)),
      fmtMs(sorted[sorted.length - 1]!),
    ]);
  }

  // A candle boundary where five coins signal BUY, then the next where they signal SELL (every bot
  // buys five positions within maxConcurrentTrades 5, then sells them), then a single signal.
  await round('burst: 10 signals', [
    ...COINS.map((symbol) => ({ symbol, type: 'BUY' as const, candleTime: at(candle - 900_000), price: PRICE[symbol] })),
    ...COINS.map((symbol) => ({ symbol, type: 'SELL' as const, candleTime: at(candle - 600_000), price: PRICE[symbol] })),
  ]);
  await round('one signal', [{ symbol: 'DOT', type: 'BUY', candleTime: at(candle - 300_000), price: 6.5 }]);

  const status = bot.status();
  console.log(`\ntrading bench, embedded (PGlite, in-process bus): ${fmtCount(BOTS)} active bots + the house bot, worker concurrency ${CONCURRENCY}; load ${loadAverage()}`);
  console.log(table(['round', 'trades', 'all appended', 'all visible', 'trades/s', 'p50 signal->visible', 'p99 signal->visible', 'max'], rows));
  console.log(`worker: placed ${status.tradesPlaced}, skipped ${JSON.stringify(status.skipped)}, refused ${status.refused}, failures ${status.failures}`);
  console.log('(visible: the open-positions projection has passed the trade; trades/s: trades / time to all visible)');

  await bot.stop();
  await projector.stop();
  await rt.infra.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
