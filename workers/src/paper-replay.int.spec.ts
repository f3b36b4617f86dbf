/**
 * One engine for paper trading and backtesting (issue 17, section 4): the live workers run a
 * simulated day, and the paper engine, fed the same day's signals and the same path, gives exactly
 * the trades the paper bot made, to the micro-dollar.
 *
 * The live side is the real thing on the embedded stores (PGlite, the projector): the signal engine
 * evaluates three coins at every 5-minute boundary of 2026-01-07 on the simulated market, the trading
 * bot follows the store and fills at each signal's tick, the risk monitor (woken by a notice per coin
 * every 5 minutes, the ticks in between left to its scan) closes what the path crosses. Time is an
 * injected clock walked through the day: the signal engine's clock, the bot's (its wait for a fill
 * tick moves the clock there), the monitor's and the command handler's. The user trades with tight
 * levels (0.5 % stop, 1 % target, 10 % positions) so the day has stops and targets as well as signal
 * trades.
 *
 * The engine side reads the recorded SignalGenerated events (with the time each was recorded), the
 * user's risk state and a path of the same seed, and runs runPaperEngine over the day. Seen failing
 * (the engine's 121 events against 101 and 118 live) with the monitor checking only the notice's
 * tick and with the bot filling at the moment it handled a signal.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { coinById, type CoinId } from '@papertrade/domain/market/coins';
import { tickAt } from '@papertrade/domain/market/market-path';
import type { SignalGenerated } from '@papertrade/domain/signals/signal';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { pathTicks } from '@papertrade/domain/trading/engine/price-ticks';
import { runPaperEngine, type EngineSignal } from '@papertrade/domain/trading/engine/paper-engine';
import { portfolioStreamId, type PortfolioEvent } from '@papertrade/domain/trading/portfolio';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { startHarness, type Harness } from '../../test/api-harness';
import { RiskMonitor } from './risk-monitor';
import { SignalEngine, type Timer } from './signal-engine';
import { TradingBot } from './trading-bot';

const DAY = Date.UTC(2026, 0, 7);
const CANDLE_MS = 5 * 60_000;
const COINS: CoinId[] = ['ethereum', 'solana', 'uniswap'];

/** A timer that never fires: the test calls the signal engine's rounds itself. */
const idleTimer: Timer = { set: () => undefined, clear: () => undefined };

describe('one engine: a recorded day of the paper bot replayed through the paper engine (PGlite)', function () {
  this.timeout(600_000);
  let harness: Harness;
  let now = DAY;
  const clock = () => new Date(now);
  const market = new SimulatedMarketData('paper replay spec market seed', clock);
  const user = randomUUID();
  let live: PortfolioEvent[] = [];
  let engine: PortfolioEvent[] = [];

  before(async function () {
    harness = await startHarness();
    const { eventStore, documents, leases, readModels, bus } = harness.rt.infra;
    const handler = new CommandHandler(eventStore, clock);
    const meta = () => ({ actor: 'test', correlationId: randomUUID() });
    now = DAY - 3_600_000;
    await handler.handle(subscriptionDecider, subscriptionStreamId(user), { type: 'ChangeSubscriptionByAdmin', data: { userId: user, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now: clock().toISOString() } }, meta());
    await handler.handle(botDecider, botStreamId(user), { type: 'StartBot', data: { userId: user, premium: true }, metadata: { now: clock().toISOString() } }, meta());
    await handler.handle(
      riskDecider,
      riskStreamId(user),
      { type: 'ChangeBotSettings', data: { userId: user, changes: { stopLossPercent: 0.5, takeProfitPercent: 1, maxPositionSize: 10 } }, metadata: { now: clock().toISOString() } },
      meta(),
    );
    await harness.projector.caughtUp();

    const signals = new SignalEngine({ marketData: market, handler, clock, logger: silentLogger, timer: idleTimer, coins: COINS.map(coinById) });
    const bot = new TradingBot({
      eventStore,
      documents,
      leases,
      readModels,
      handler,
      marketData: market,
      clock,
      // The bot waits for its fill tick: on this clock, waiting is moving the clock there.
      waitUntil: async (ms) => {
        now = Math.max(now, ms);
      },
      logger: silentLogger,
      houseDemo: false,
    });
    const monitor = new RiskMonitor({ bus, readModels, leases, handler, marketData: market, clock, logger: silentLogger });
    const notices = async () => {
      await harness.projector.caughtUp();
      for (const coinId of COINS) {
        const quote = await market.price(coinId);
        await monitor.onTick({ coinId, symbol: quote.symbol, price: quote.price, changePercent24h: quote.changePercent24h, at: quote.at });
      }
    };

    const head = await harness.head();
    signals.start();
    await bot.start();
    for (let boundary = DAY; boundary < DAY + 86_400_000; boundary += CANDLE_MS) {
      now = boundary + 1000; // the signal engine's round, a second after the close
      await notices();
      await signals.evaluateAll();
      await bot.follower.reached(await harness.head());
    }
    now = DAY + 86_400_000 - 1;
    await notices();
    await signals.stop();
    await bot.stop();
    expect(bot.status(), 'the bot was never late').to.include({ lateFills: 0, refused: 0, failures: 0 });
    expect(monitor.status().failures).to.equal(0);

    const events = await harness.eventsSince(head);
    live = (await eventStore.readStream(portfolioStreamId(user))).map((e) => ({ type: e.type, data: e.data }) as PortfolioEvent);
    const recorded: EngineSignal[] = events
      .filter((e) => e.type === 'SignalGenerated')
      .map((e) => {
        const d = e.data as SignalGenerated['data'];
        return { eventId: e.id, signalId: d.signalId, type: d.type, symbol: d.symbol, price: d.price, confidence: d.confidence, candleTime: d.candleTime, recordedAt: String(e.metadata.at) };
      });
    const risk = (await handler.load(riskDecider, riskStreamId(user))).state;
    const replay = runPaperEngine(
      { ticks: pathTicks(new SimulatedMarketData('paper replay spec market seed').simulation.path), userId: user, rules: { settings: risk.settings, parameters: risk.parameters } },
      recorded,
      tickAt(now),
    );
    engine = replay.events;
  });
  after(async function () {
    await harness?.stop();
  });

  const trades = (events: PortfolioEvent[], type: PortfolioEvent['type']) => events.filter((e) => e.type === type);

  it('made a day of trades: bot buys and sells on signals, stop losses and take profits from the path', function () {
    const placed = trades(live, 'SimulatedTradePlaced');
    const closed = trades(live, 'PositionClosed') as Extract<PortfolioEvent, { type: 'PositionClosed' }>[];
    expect(placed.length, 'signal trades').to.be.greaterThan(10);
    expect(closed.filter((c) => c.data.reason === 'STOP_LOSS').length, 'stop losses').to.be.greaterThan(2);
    expect(closed.filter((c) => c.data.reason === 'TAKE_PROFIT').length, 'take profits').to.be.greaterThan(0);
  });

  it('filled every live order and close at a tick inside its 1m, 5m, 15m, 1h, 4h and 1d candles', function () {
    const sim = new SimulatedMarketData('paper replay spec market seed').simulation;
    for (const e of live) {
      if (e.type !== 'SimulatedTradePlaced' && e.type !== 'PositionClosed') continue;
      const { execution, coinId } = e.data;
      const at = Date.parse(execution!.filledAt);
      expect(execution!.mid).to.equal(sim.path.price(coinId, tickAt(at)));
      for (const width of [1, 5, 15, 60, 240, 1440]) {
        const [candle] = sim.candles(coinId, at, at, width);
        expect(execution!.mid, `${coinId} ${execution!.filledAt} ${width}m`).to.be.within(candle!.low, candle!.high);
      }
    }
  });

  it('gives exactly the trades the paper bot made: every fill and close, the same prices, amounts, fees and P&L to the micro-dollar', function () {
    // Closes of two coins may be appended in either order live (the monitor's coins are independent): compare in time order.
    const key = (e: PortfolioEvent) => {
      const d = e.data as { placedAt?: string; closedAt?: string; openedAt?: string; tradeId?: string; positionId?: string };
      return `${d.placedAt ?? d.closedAt ?? d.openedAt}|${d.tradeId ?? d.positionId ?? ''}`;
    };
    const sorted = (events: PortfolioEvent[]) => [...events].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    expect(engine.length).to.equal(live.length);
    expect(sorted(engine)).to.deep.equal(sorted(live));
  });
});
