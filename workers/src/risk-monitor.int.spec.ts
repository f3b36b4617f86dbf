/**
 * The risk monitor on the embedded stores (PGlite) with the projector running, fed ticks on the bus
 * (or handed them directly) and candles the test controls: a bot position's stop loss and take profit
 * (by the risk profile) close at the level's price on the tick whose range reaches it (and not on a
 * candle older than the position); a manual position keeps no automatic stop unless its person set
 * one, and then closes at its own level; a trailing stop follows the highest candle since the entry;
 * the portfolio's peak is recorded and the drawdown alert measures from it; every alert condition
 * fires once, also for a monitor started afresh; of two monitors on the same store only the lease
 * holder works, and the other takes over when it stops. Last, with the simulated market's own
 * candles: the ticks of the minute so far count, later ones not.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { findCoinById, type CoinId, type Candle } from '@papertrade/domain/market/coins';
import { marketTickSubject, type MarketTick } from '@papertrade/domain/market/contracts';
import { DEFAULT_RISK_PARAMETERS, type BotSettings, type RiskParameters } from '@papertrade/domain/trading/contracts';
import { portfolioStreamId, type PositionClosed } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId, type RiskAlertRaised } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { CommandHandler, type CommandMeta, type CommandResult, type LoadedState } from '@papertrade/platform/commands/command-handler';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { CandleSeries } from '@papertrade/platform/market/market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { tickAt, tickTime } from '@papertrade/domain/market/market-path';
import { startHarness, type Harness } from '../../test/api-harness';
import { waitUntil } from '../../test/wait';
import { MINUTE_CANDLE_DAYS, RiskMonitor } from './risk-monitor';
import type { ExitRequest } from '@papertrade/domain/trading/portfolio.decider';
import { syntheticCandles, type SyntheticMarket } from '../../test/synthetic-candles';

/** A bot position's plan: it follows the user's risk profile. */
const BOT: ExitRequest = { kind: 'PROFILE', atr: null, sigma: null };

const MINUTE = 60_000;

describe('risk monitor (PGlite)', function () {
  this.timeout(120_000);
  let harness: Harness;
  let handler: CommandHandler;
  let now = Date.now();
  /** The minute candle the market answers for each coin (null: none). */
  const candles = new Map<CoinId, Candle>();
  /** Wider ranges (the figures, a trailing stop's ladder): synthetic candles, or those a test sets. */
  let market: SyntheticMarket = {};
  const ladders = new Map<string, Candle[]>();
  const monitors: RiskMonitor[] = [];

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date(now));
  });
  afterEach(async function () {
    for (const m of monitors.splice(0)) await m.stop();
    market = {};
    ladders.clear();
  });
  after(async function () {
    await harness?.stop();
  });

  function newMonitor(options: { handler?: CommandHandler } = {}) {
    const monitor = new RiskMonitor({
      bus: harness.rt.infra.bus,
      readModels: harness.rt.infra.readModels,
      leases: harness.rt.infra.leases,
      leaseRetryMs: 20,
      handler: options.handler ?? handler,
      marketData: {
        async candles(coinId: CoinId, days: number): Promise<CandleSeries> {
          const set = ladders.get(`${coinId}|${days}`);
          if (set) return { coinId, interval: { label: '1m', minutes: 1 }, candles: set };
          if (days !== MINUTE_CANDLE_DAYS) return syntheticCandles(coinId, days, now, market);
          const candle = candles.get(coinId);
          return { coinId, interval: { label: '1m', minutes: 1 }, candles: candle ? [candle] : [] };
        },
      },
      clock: () => new Date(now),
      logger: silentLogger,
    });
    monitors.push(monitor);
    return monitor;
  }

  const meta = () => ({ actor: 'test', correlationId: randomUUID() });
  const iso = () => new Date(now).toISOString();

  /** A trade; `exits` BOT for a position that follows the profile as the bot's do, a manual plan, or none. */
  async function trade(userId: string, symbol: string, side: 'BUY' | 'SELL', amount: number, price: number, exits?: ExitRequest): Promise<string> {
    const tradeId = randomUUID();
    await handler.handle(
      portfolioDecider,
      portfolioStreamId(userId),
      { type: 'PlaceSimulatedTrade', data: { userId, tradeId, symbol, side, amount, price, source: { kind: 'MANUAL' }, ...(exits ? { exits } : {}) }, metadata: { now: iso() } },
      meta(),
    );
    return tradeId;
  }
  async function settings(userId: string, changes: Partial<BotSettings>) {
    await handler.handle(riskDecider, riskStreamId(userId), { type: 'ChangeBotSettings', data: { userId, changes }, metadata: { now: iso() } }, meta());
  }
  async function parameters(userId: string, changes: Partial<RiskParameters>) {
    await handler.handle(riskDecider, riskStreamId(userId), { type: 'ChangeRiskParameters', data: { userId, parameters: { ...DEFAULT_RISK_PARAMETERS, ...changes } }, metadata: { now: iso() } }, meta());
  }
  function tick(coinId: CoinId, price: number, changePercent24h = 1): MarketTick {
    return { coinId, symbol: findCoinById(coinId)!.symbol, price, changePercent24h, at: iso() } as MarketTick;
  }
  /** The candle of the current minute. */
  function candle(coinId: CoinId, low: number, high: number, time = Math.floor(now / MINUTE) * MINUTE) {
    candles.set(coinId, { time, open: low, high, low, close: high, volume: 1 });
  }
  async function closes(userId: string): Promise<PositionClosed['data'][]> {
    return (await harness.rt.infra.eventStore.readStream(portfolioStreamId(userId))).filter((e) => e.type === 'PositionClosed').map((e) => e.data as PositionClosed['data']);
  }
  async function alerts(userId: string): Promise<RiskAlertRaised['data'][]> {
    return (await harness.rt.infra.eventStore.readStream(riskStreamId(userId))).filter((e) => e.type === 'RiskAlertRaised').map((e) => e.data as RiskAlertRaised['data']);
  }

  it('closes a bot position at the stop loss price on the tick whose minute candle reaches it (ticks from the bus)', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 5, 10, 0, 30);
    await trade(user, 'ETH', 'BUY', 1, 3000, BOT); // stop loss 2 % -> 2940, take profit 5 % -> 3150
    await harness.projector.caughtUp();
    const monitor = newMonitor();
    await monitor.start();

    // A candle that began before the position opened does not count, whatever its low.
    candle('ethereum', 2000, 3010, Math.floor(now / MINUTE) * MINUTE);
    now += 5000;
    await harness.rt.infra.bus.publish(marketTickSubject('ethereum'), tick('ethereum', 2990));
    await waitUntil(() => monitor.status().ticks === 1, { message: 'the first tick' });
    await monitor.idle();
    expect(await closes(user)).to.deep.equal([]);

    // The next minute: the tick stays above the stop, the candle's low does not.
    now += MINUTE;
    candle('ethereum', 2960, 3010);
    await harness.rt.infra.bus.publish(marketTickSubject('ethereum'), tick('ethereum', 2990));
    await waitUntil(() => monitor.status().ticks === 2, { message: 'the second tick' });
    await monitor.idle();
    expect(await closes(user), 'the low 2960 is above the stop 2940').to.deep.equal([]);

    now += 5000;
    candle('ethereum', 2930, 3010);
    await harness.rt.infra.bus.publish(marketTickSubject('ethereum'), tick('ethereum', 2975));
    const closed = await waitUntil(async () => (await closes(user))[0], { message: 'the stop loss' });
    expect(closed).to.include({ reason: 'STOP_LOSS', price: 2940, symbol: 'ETH', quantity: 1 });

    // Later ticks below the stop close nothing more.
    now += 5000;
    await monitor.onTick(tick('ethereum', 2800));
    await harness.projector.caughtUp();
    await monitor.onTick(tick('ethereum', 2700));
    expect(await closes(user)).to.have.length(1);
  });

  it('closes at the take profit price when the candle high reaches it', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 5, 11, 0, 30);
    await trade(user, 'BTC', 'BUY', 0.01, 60_000, BOT);
    await settings(user, { stopLossPercent: 3, takeProfitPercent: 5 }); // stop 58,200, take profit 63,000
    await harness.projector.caughtUp();
    const monitor = newMonitor();
    now += MINUTE;
    candle('bitcoin', 59_000, 62_900);
    await monitor.onTick(tick('bitcoin', 62_000));
    expect(await closes(user)).to.deep.equal([]);
    now += 5000;
    candle('bitcoin', 58_300, 63_500);
    await monitor.onTick(tick('bitcoin', 62_000));
    const closed = await closes(user);
    expect(closed).to.have.length(1);
    expect(closed[0]).to.include({ reason: 'TAKE_PROFIT', price: 63_000 });
  });

  it('keeps no automatic stop on a manual position without one, and closes one with levels at its own level (issue 17)', async function () {
    const bare = randomUUID();
    const levelled = randomUUID();
    now = Date.UTC(2026, 0, 6, 10, 0, 30);
    await trade(bare, 'LINK', 'BUY', 10, 14);
    await trade(levelled, 'LINK', 'BUY', 10, 14, { kind: 'MANUAL', stopLossPercent: 10, takeProfitPercent: null }); // stop 12.60
    await harness.projector.caughtUp();
    const monitor = newMonitor();
    now += MINUTE;
    candle('chainlink', 13.0, 14.1);
    await monitor.onTick(tick('chainlink', 13.2)); // 5.7 % down: past the profile's 2 %, not the 10 % set
    now += 5000;
    candle('chainlink', 9, 30);
    await monitor.onTick(tick('chainlink', 25));
    expect(await closes(bare), 'no stop, no target: nothing closes it').to.deep.equal([]);
    const [closed, ...more] = await closes(levelled);
    expect(more).to.deep.equal([]);
    expect(closed).to.include({ reason: 'STOP_LOSS', price: 14 * 0.9 });
  });

  it('a trailing stop follows the highest complete candle since the entry, and a drop below it closes there', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 6, 11, 0, 30);
    const opened = now;
    await trade(user, 'DOT', 'BUY', 100, 6.5, BOT);
    await parameters(user, { stopLossType: 'trailing', takeProfitRatio: 10 }); // 2 % below the high since entry; target 7.80
    await harness.projector.caughtUp();
    // Minute candles since the entry, up to 7.00; a candle from before it (8.00) does not count.
    const minute = (at: number, high: number): Candle => ({ time: at, open: high - 0.05, high, low: high - 0.1, close: high - 0.05, volume: 1 });
    now = opened + 5 * MINUTE + 30_000;
    const since = Math.floor(opened / MINUTE) * MINUTE;
    ladders.set('polkadot|0.17', [minute(since - MINUTE, 8), minute(since + MINUTE, 6.8), minute(since + 2 * MINUTE, 7), minute(since + 3 * MINUTE, 6.9), minute(since + 4 * MINUTE, 6.95)]);
    const monitor = newMonitor();
    candle('polkadot', 6.87, 6.9);
    await monitor.onTick(tick('polkadot', 6.88)); // above 7.00 x 0.98 = 6.86
    expect(await closes(user)).to.deep.equal([]);
    now += 5000;
    candle('polkadot', 6.85, 6.9);
    await monitor.onTick(tick('polkadot', 6.87));
    const [closed] = await closes(user);
    expect(closed).to.include({ reason: 'STOP_LOSS' });
    expect(closed!.price).to.be.closeTo(6.86, 1e-9);
  });

  it('records the portfolio\'s new peaks on ticks (a quarter percent apart) and measures the drawdown alert from the peak', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 6, 12, 0, 30);
    await trade(user, 'UNI', 'BUY', 500, 8); // 4,000 of UNI, 5,996 cash
    await parameters(user, { maxDrawdown: 10, maxPositionSize: 50 });
    await harness.projector.caughtUp();
    candles.delete('uniswap');
    const monitor = newMonitor();
    const peaks = async () => (await harness.rt.infra.eventStore.readStream(portfolioStreamId(user))).filter((e) => e.type === 'PortfolioPeakRecorded').map((e) => (e.data as { valueMicros: number }).valueMicros);
    now += MINUTE;
    await monitor.onTick(tick('uniswap', 10)); // 5,996 + 5,000 = 10,996
    await monitor.onTick(tick('uniswap', 10.01)); // 11,001: not a quarter percent above
    await harness.projector.caughtUp();
    now += 5000;
    await monitor.onTick(tick('uniswap', 10.2)); // 11,096
    expect(await peaks()).to.deep.equal([10_996_000_000, 11_096_000_000]);
    expect(monitor.status().peaksRecorded).to.equal(2);
    await harness.projector.caughtUp();
    // 8.0: 9,996, 9.91 % below the peak of 11,096 (but no loss against the starting cash): no alert yet.
    now += 5000;
    await monitor.onTick(tick('uniswap', 8));
    expect((await alerts(user)).filter((a) => a.kind === 'DRAWDOWN')).to.deep.equal([]);
    // 7.9: 9,946, 10.36 % below it: the alert, measured from the peak.
    now += 5000;
    await monitor.onTick(tick('uniswap', 7.9));
    const [drawdown] = (await alerts(user)).filter((a) => a.kind === 'DRAWDOWN');
    expect(drawdown).to.include({ severity: 'critical', threshold: 10, value: 10.36 });
    expect(drawdown!.message).to.equal('Drawdown of 10.36% from the peak $11,096.00 is above the maximum of 10%: the bot opens no new positions');
  });

  it('raises each alert condition once, also for a monitor started afresh', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 5, 12, 0, 30);
    await settings(user, { stopLossPercent: 20, takeProfitPercent: 100 });
    await parameters(user, { maxPositionSize: 10, maxConcurrentTrades: 1, maxDailyLoss: 50, maxDrawdown: 5, volatilityThreshold: 10 });
    await trade(user, 'BTC', 'BUY', 0.01, 50_000);
    await trade(user, 'BTC', 'SELL', 0.01, 45_000); // a realised loss of 50 + fees: 100 % of the daily limit
    const eth = await trade(user, 'ETH', 'BUY', 2, 3000);
    await trade(user, 'BNB', 'BUY', 1, 600); // 6.7 % of the portfolio: under the maximum
    await harness.projector.caughtUp();
    candles.delete('ethereum');
    market = { volatility: 0.1 }; // a 24-hour range of about 35 %, above the threshold of 10 %

    const monitor = newMonitor();
    now += MINUTE;
    // ETH at 2500: value about 8,950 (a drawdown above 5 %), ETH 56 % of it, two positions, ETH's 24-hour range above 10 %.
    await monitor.onTick(tick('ethereum', 2500, -15));
    const raised = await alerts(user);
    expect(raised.map((a) => a.conditionKey).sort()).to.deep.equal(
      ['CONCURRENT_TRADES', 'DAILY_LOSS_50@2026-01-05', 'DAILY_LOSS_80@2026-01-05', 'DRAWDOWN', `POSITION_SIZE:${eth}`, 'VOLATILITY:ETH@2026-01-05'].sort(),
    );
    expect(raised.find((a) => a.kind === 'DRAWDOWN')).to.include({ severity: 'critical', threshold: 5 });
    expect(raised.find((a) => a.conditionKey.startsWith('DAILY_LOSS_80'))).to.include({ severity: 'high', threshold: 40 });

    // The same conditions on the next ticks, before and after the read model has the alerts, and for a new monitor.
    now += 5000;
    await monitor.onTick(tick('ethereum', 2490, -15));
    await harness.projector.caughtUp();
    now += 5000;
    await monitor.onTick(tick('ethereum', 2480, -15));
    now += 2 * MINUTE;
    await newMonitor().onTick(tick('ethereum', 2470, -16));
    expect(await alerts(user)).to.have.length(6);
  });

  it('raises no alert about positions a reset has just discarded while the read model still shows them (issue 16, item 10)', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 5, 14, 0, 30);
    await settings(user, { stopLossPercent: 20, takeProfitPercent: 100 });
    await parameters(user, { maxPositionSize: 10, maxConcurrentTrades: 1 });
    await trade(user, 'ETH', 'BUY', 2, 3000);
    await trade(user, 'BTC', 'BUY', 0.01, 50_000);
    await harness.projector.caughtUp();
    candles.delete('ethereum');
    // The reset lands while the projector is behind: the open-positions document still holds both positions.
    await harness.projector.stop();
    try {
      await handler.handle(portfolioDecider, portfolioStreamId(user), { type: 'ResetPortfolio', data: { userId: user }, metadata: { now: iso() } }, meta());
      await handler.handle(riskDecider, riskStreamId(user), { type: 'ResolveRiskAlerts', data: { userId: user, reason: 'PORTFOLIO_RESET' }, metadata: { now: iso() } }, meta());
      now += 5000;
      // ETH 60 % of the portfolio and two positions open, as far as the read model knows.
      await newMonitor().onTick(tick('ethereum', 3000));
      expect(await alerts(user)).to.deep.equal([]);
    } finally {
      await harness.projector.start();
    }
    await harness.projector.caughtUp();
    // A new position after the reset is watched as ever.
    await trade(user, 'ETH', 'BUY', 2, 3000);
    await harness.projector.caughtUp();
    now += 5000;
    await newMonitor().onTick(tick('ethereum', 3000));
    expect((await alerts(user)).map((a) => a.kind)).to.deep.equal(['POSITION_SIZE']);
  });

  it('works as one monitor when two share the store: the lease holder closes and alerts once, the other stands by and takes over when it stops', async function () {
    /** Every command the monitors issue, as `type|stream`. */
    const issued: string[] = [];
    class CountingHandler extends CommandHandler {
      override async handle<S, C, E extends DomainEvent>(decider: Decider<S, C, E>, streamId: string, command: C | ((state: S) => C | Promise<C>), meta: CommandMeta, loaded?: LoadedState<S>): Promise<CommandResult<E>> {
        issued.push(`${(command as { type: string }).type}|${streamId}`);
        return super.handle(decider, streamId, command, meta, loaded);
      }
    }
    const counting = new CountingHandler(harness.rt.infra.eventStore, () => new Date(now));
    const stopped = randomUUID();
    const concentrated = randomUUID();
    now = Date.UTC(2026, 0, 5, 13, 0, 30);
    await trade(stopped, 'SOL', 'BUY', 10, 150, BOT); // stop loss 2 % -> 147
    await trade(concentrated, 'SOL', 'BUY', 20, 150, BOT); // 3,000 of the portfolio in SOL: above the 5 % maximum position
    await settings(concentrated, { stopLossPercent: 20 }); // stop 120: not reached here
    await harness.projector.caughtUp();
    const first = newMonitor({ handler: counting });
    const second = newMonitor({ handler: counting });
    await first.start();
    await second.start();
    expect(first.status()).to.include({ running: true, leading: true });
    expect(second.status()).to.include({ running: true, leading: false });

    now += MINUTE;
    candle('solana', 146, 151);
    await harness.rt.infra.bus.publish(marketTickSubject('solana'), tick('solana', 149));
    await waitUntil(() => first.status().ticks === 1, { message: 'the leader to take the tick' });
    await Promise.all([first.idle(), second.idle()]);
    expect(await closes(stopped)).to.have.length(1);
    const raised = await alerts(concentrated);
    expect(raised.filter((a) => a.kind === 'POSITION_SIZE')).to.have.length(1);
    // Each command issued once, by the leader; the standby saw no tick.
    expect(issued.filter((c) => c.startsWith('ClosePosition|'))).to.deep.equal([`ClosePosition|${portfolioStreamId(stopped)}`]);
    expect(issued.filter((c) => c.startsWith('RaiseRiskAlert|')).length).to.equal(raised.length);
    expect(first.status()).to.include({ positionsClosed: 1 });
    expect(second.status()).to.include({ ticks: 0, usersChecked: 0, positionsClosed: 0, alertsRaised: 0 });

    // The leader stops: the standby takes the lease and closes the next stop reached.
    await first.stop();
    await waitUntil(() => second.status().leading, { message: 'the standby to take over' });
    const later = randomUUID();
    await trade(later, 'SOL', 'BUY', 1, 149, BOT); // stop loss 2 % -> 146.02
    await harness.projector.caughtUp();
    now += MINUTE;
    candle('solana', 140, 149);
    await harness.rt.infra.bus.publish(marketTickSubject('solana'), tick('solana', 145));
    await waitUntil(async () => (await closes(later)).length === 1, { message: 'the new leader to close the stop' });
    await second.idle();
    expect(second.status()).to.include({ ticks: 1, positionsClosed: 1 });
    expect(first.status()).to.include({ running: false, leading: false, ticks: 1 });
  });

  it("reads the simulated market's minute candle: the ticks of the minute so far reach a stop, the ticks after now do not", async function () {
    const market = new SimulatedMarketData('risk monitor spec seed', () => new Date(now));
    const path = market.simulation.path;
    // A minute of ETH whose ticks up to second 30 dip below both its open and the tick at 30 s, and
    // whose ticks after 30 s go lower still: a stop between the two lows must close now, one below
    // both must not (the minute's later ticks are in the future). (The old path's minute candle was
    // one price, its open: neither stop closed.)
    let minute = tickAt(Date.UTC(2026, 0, 6, 9)) / 12;
    let ticks = new Float64Array(12);
    const lowUntil = (k: number) => Math.min(...ticks.subarray(0, k + 1));
    for (; ; minute++) {
      ticks = path.ticks('ethereum', minute * 12, new Float64Array(12));
      const soFar = lowUntil(6);
      if (soFar < ticks[0]! * 0.9995 && soFar < ticks[6]! * 0.9995 && Math.min(...ticks.subarray(7)) < soFar * 0.9995) break;
    }
    const minuteStart = tickTime(minute * 12);
    const soFar = lowUntil(6);
    const reached = (soFar + Math.min(ticks[0]!, ticks[6]!)) / 2; // above the low so far, below the open and the tick now
    const later = (soFar + Math.min(...ticks.subarray(7))) / 2; // below the low so far, above the minute's whole low
    const users = { reached: randomUUID(), later: randomUUID() };
    now = minuteStart - 3 * MINUTE;
    // Manual positions with a 2 % stop set on the trade form (without one a manual position has no automatic exit).
    const stop2 = { kind: 'MANUAL', stopLossPercent: 2, takeProfitPercent: null } as const;
    await trade(users.reached, 'ETH', 'BUY', 1, reached / 0.98, stop2); // stop loss 2 %: exactly `reached`
    await trade(users.later, 'ETH', 'BUY', 1, later / 0.98, stop2);
    await harness.projector.caughtUp();
    const monitor = new RiskMonitor({
      bus: harness.rt.infra.bus,
      readModels: harness.rt.infra.readModels,
      leases: harness.rt.infra.leases,
      leaseRetryMs: 20,
      handler,
      marketData: market,
      clock: () => new Date(now),
      logger: silentLogger,
    });
    monitors.push(monitor);
    await monitor.start();
    now = minuteStart + 30_000;
    const price = (await market.price('ethereum')).price;
    expect(price).to.equal(ticks[6]);
    await monitor.onTick(tick('ethereum', price));
    const closed = await waitUntil(async () => (await closes(users.reached))[0], { message: 'the stop reached by an earlier tick of the minute' });
    expect(closed).to.include({ reason: 'STOP_LOSS', symbol: 'ETH' });
    expect(closed.price).to.be.closeTo(reached, reached * 1e-9);
    await monitor.idle();
    expect(await closes(users.later), 'a stop only the minute\'s later ticks reach').to.deep.equal([]);
  });
});
