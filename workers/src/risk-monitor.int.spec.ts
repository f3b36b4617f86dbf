/**
 * The risk monitor on the embedded stores (PGlite) with the projector running, fed ticks on the bus
 * (or handed them directly), and candles the test controls for the coins' figures. With the simulated
 * market's path (issue 17): a stop loss or take profit closes at the first tick at or beyond its level
 * since the position opened, at that tick's price less the spread and impact and at its time,
 * whichever notices came (one notice long after, the others lost), also for a monitor started afresh,
 * and never at a tick after now; a trailing stop follows the highest tick since the entry. Without a
 * path (a live source): at the first notice's price beyond the level. Each position by its exit plan
 * (issue 17): a bot position by the risk profile, a manual one keeps no automatic stop unless its
 * person set one, and then closes at its own level. The portfolio's peak is recorded and the drawdown
 * alert measures from it; every alert condition fires once, also for a monitor started afresh; of two
 * monitors on the same store only the lease holder works, and the other takes over when it stops.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { findCoinById, halfSpreadOf, type CoinId } from '@papertrade/domain/market/coins';
import { marketTickSubject, type MarketTick } from '@papertrade/domain/market/contracts';
import { DEFAULT_RISK_PARAMETERS, type BotSettings, type RiskParameters } from '@papertrade/domain/trading/contracts';
import { portfolioStreamId, type PositionClosed } from '@papertrade/domain/trading/portfolio';
import { portfolioDecider } from '@papertrade/domain/trading/portfolio.decider';
import { riskStreamId, type RiskAlertRaised } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { CommandHandler, type CommandMeta, type CommandResult, type LoadedState } from '@papertrade/platform/commands/command-handler';
import type { Decider, DomainEvent } from '@papertrade/domain/shared/decider';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { MarketData } from '@papertrade/platform/market/market-data';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { tickAt, tickTime, TICKS_PER_MINUTE } from '@papertrade/domain/market/market-path';
import { priceImpact, typicalMinuteVolumeUsd } from '@papertrade/domain/trading/engine/fills';
import type { ExitRequest } from '@papertrade/domain/trading/portfolio.decider';
import { startHarness, type Harness } from '../../test/api-harness';
import { syntheticCandles, type SyntheticMarket } from '../../test/synthetic-candles';
import { waitUntil } from '../../test/wait';
import { RiskMonitor } from './risk-monitor';

/** A bot position's plan: it follows the user's risk profile. */
const BOT: ExitRequest = { kind: 'PROFILE', atr: null, sigma: null };

const MINUTE = 60_000;

describe('risk monitor (PGlite)', function () {
  this.timeout(120_000);
  let harness: Harness;
  let handler: CommandHandler;
  let now = Date.now();
  /** The candles of the coins' figures (ATR14, sigma20, the 24-hour range): synthetic, as a test sets them. */
  let candleMarket: SyntheticMarket = {};
  const monitors: RiskMonitor[] = [];

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date(now));
  });
  afterEach(async function () {
    for (const m of monitors.splice(0)) await m.stop();
    candleMarket = {};
  });
  after(async function () {
    await harness?.stop();
  });

  /** A monitor; by default on a market without a price path (the notices' prices are all it knows). */
  function newMonitor(options: { handler?: CommandHandler; market?: Pick<MarketData, 'ticks' | 'candles'> } = {}) {
    const monitor = new RiskMonitor({
      bus: harness.rt.infra.bus,
      readModels: harness.rt.infra.readModels,
      leases: harness.rt.infra.leases,
      leaseRetryMs: 20,
      handler: options.handler ?? handler,
      marketData: options.market ?? { ticks: null, candles: async (coinId: CoinId, days: number) => syntheticCandles(coinId, days, now, candleMarket) },
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
  async function closes(userId: string): Promise<PositionClosed['data'][]> {
    return (await harness.rt.infra.eventStore.readStream(portfolioStreamId(userId))).filter((e) => e.type === 'PositionClosed').map((e) => e.data as PositionClosed['data']);
  }
  async function alerts(userId: string): Promise<RiskAlertRaised['data'][]> {
    return (await harness.rt.infra.eventStore.readStream(riskStreamId(userId))).filter((e) => e.type === 'RiskAlertRaised').map((e) => e.data as RiskAlertRaised['data']);
  }

  it('without a price path (a live source): closes at the first notice at or below the stop, at that price less the costs (ticks from the bus)', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 5, 10, 0, 30);
    await trade(user, 'ETH', 'BUY', 1, 3000, BOT); // stop loss 2 % -> 2940, take profit 5 % -> 3150
    await harness.projector.caughtUp();
    const monitor = newMonitor();
    await monitor.start();

    now += 5000;
    await harness.rt.infra.bus.publish(marketTickSubject('ethereum'), tick('ethereum', 2990));
    await waitUntil(() => monitor.status().ticks === 1, { message: 'the first tick' });
    await monitor.idle();
    expect(await closes(user)).to.deep.equal([]);

    now += 5000;
    const at = iso();
    await harness.rt.infra.bus.publish(marketTickSubject('ethereum'), tick('ethereum', 2935));
    const closed = await waitUntil(async () => (await closes(user))[0], { message: 'the stop loss' });
    const impact = priceImpact('ethereum', 2935, typicalMinuteVolumeUsd('ethereum'));
    expect(closed).to.deep.include({ reason: 'STOP_LOSS', symbol: 'ETH', quantity: 1, price: 2935 * (1 - halfSpreadOf('ethereum') - impact), closedAt: at });
    expect(closed.execution).to.deep.equal({ mid: 2935, halfSpread: halfSpreadOf('ethereum'), impact, filledAt: at, level: 2940 });

    // Later ticks below the stop close nothing more.
    now += 5000;
    await monitor.onTick(tick('ethereum', 2800));
    await harness.projector.caughtUp();
    await monitor.onTick(tick('ethereum', 2700));
    expect(await closes(user)).to.have.length(1);
  });

  it('without a price path: closes at the first notice at or above the take profit', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 5, 11, 0, 30);
    await trade(user, 'BTC', 'BUY', 0.01, 60_000, BOT);
    await settings(user, { stopLossPercent: 3, takeProfitPercent: 5 }); // stop 58,200, take profit 63,000
    await harness.projector.caughtUp();
    const monitor = newMonitor();
    now += MINUTE;
    await monitor.onTick(tick('bitcoin', 62_900));
    expect(await closes(user)).to.deep.equal([]);
    now += 5000;
    await monitor.onTick(tick('bitcoin', 63_200));
    const closed = await closes(user);
    expect(closed).to.have.length(1);
    expect(closed[0]).to.include({ reason: 'TAKE_PROFIT' });
    expect(closed[0]!.execution).to.include({ mid: 63_200, level: 63_000 });
    expect(closed[0]!.price).to.be.within(63_200 * 0.9999, 63_200);
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
    await monitor.onTick(tick('chainlink', 13.2)); // 5.7 % down: past the profile's 2 %, not the 10 % set
    expect(await closes(levelled)).to.deep.equal([]);
    now += 5000;
    await monitor.onTick(tick('chainlink', 12.5));
    now += 5000;
    await monitor.onTick(tick('chainlink', 25));
    expect(await closes(bare), 'no stop, no target: nothing closes it').to.deep.equal([]);
    const [closed, ...more] = await closes(levelled);
    expect(more).to.deep.equal([]);
    expect(closed).to.deep.include({ reason: 'STOP_LOSS' });
    expect(closed!.execution).to.include({ mid: 12.5, level: 14 * 0.9 });
  });

  it('records the portfolio\'s new peaks on ticks (a quarter percent apart) and measures the drawdown alert from the peak', async function () {
    const user = randomUUID();
    now = Date.UTC(2026, 0, 6, 12, 0, 30);
    await trade(user, 'UNI', 'BUY', 500, 8); // 4,000 of UNI, 5,996 cash
    await parameters(user, { maxDrawdown: 10, maxPositionSize: 50 });
    await harness.projector.caughtUp();
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
    candleMarket = { volatility: 0.1 }; // a 24-hour range of about 35 %, above the threshold of 10 %

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
    await harness.rt.infra.bus.publish(marketTickSubject('solana'), tick('solana', 146.5));
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
    await harness.rt.infra.bus.publish(marketTickSubject('solana'), tick('solana', 145));
    await waitUntil(async () => (await closes(later)).length === 1, { message: 'the new leader to close the stop' });
    await second.idle();
    expect(second.status()).to.include({ ticks: 1, positionsClosed: 1 });
    expect(first.status()).to.include({ running: false, leading: false, ticks: 1 });
  });

  describe('on the simulated market\'s path (issue 17)', function () {
    const market = new SimulatedMarketData('risk monitor spec seed', () => new Date(now));
    const path = market.simulation.path;
    /** Ticks after an opening at 09:00: a new low at tick `c` (0-based after the opening) that jumps through a level between it and the low before. */
    const opening = tickAt(Date.UTC(2026, 0, 6, 9));
    const after = path.ticks('ethereum', opening + 1, new Float64Array(720));
    let c = 100;
    let lowBefore = Math.min(...after.subarray(0, c));
    while (!(after[c]! < lowBefore * 0.9997)) lowBefore = Math.min(lowBefore, after[c++]!);
    const level = (after[c]! + lowBefore) / 2;
    const crossing = opening + 1 + c;
    /** A position whose 2 % stop is exactly `level`, opened at the opening tick. */
    async function positionAt(user: string): Promise<number> {
      const entry = level / 0.98;
      now = tickTime(opening);
      await trade(user, 'ETH', 'BUY', Math.round((1000 / entry) * 1e8) / 1e8, entry, BOT);
      await harness.projector.caughtUp();
      return entry;
    }

    it('closes at the first tick through the stop since the opening, at its price less the costs and at its time, from one notice long after (the others lost)', async function () {
      expect(Math.max(...after.subarray(0, c + 1)), 'the target (5 % up) is not reached first').to.be.lessThan((level / 0.98) * 1.05);
      const user = randomUUID();
      await positionAt(user);
      const monitor = newMonitor({ market });
      now = tickTime(crossing + 40) + 2500; // one notice, 40 ticks after the crossing
      await monitor.onTick(tick('ethereum', path.price('ethereum', crossing + 40)));
      const [closed, ...more] = await closes(user);
      expect(more).to.deep.equal([]);
      const mid = after[c]!;
      const minuteVolume = path.summary('ethereum', (Math.floor(crossing / TICKS_PER_MINUTE) - 1) * TICKS_PER_MINUTE, Math.floor(crossing / TICKS_PER_MINUTE) * TICKS_PER_MINUTE).volume;
      const impact = priceImpact('ethereum', closed!.quantity * mid, minuteVolume);
      expect(closed).to.deep.include({ reason: 'STOP_LOSS', closedAt: new Date(tickTime(crossing)).toISOString(), price: mid * (1 - halfSpreadOf('ethereum') - impact) });
      expect(closed!.execution).to.deep.equal({ mid, halfSpread: halfSpreadOf('ethereum'), impact, filledAt: new Date(tickTime(crossing)).toISOString(), level: closed!.execution!.level });
      expect(closed!.execution!.level).to.be.closeTo(level, level * 1e-12);
      expect(mid, 'the gap is paid: the tick is below the level').to.be.lessThan(level);
    });

    it('closes nothing before the crossing has happened, and a monitor started afresh finds the same crossing from the opening', async function () {
      const user = randomUUID();
      await positionAt(user);
      const first = newMonitor({ market });
      now = tickTime(crossing - 1) + 4999; // the crossing is the next tick: not yet
      await first.onTick(tick('ethereum', path.price('ethereum', crossing - 1)));
      expect(await closes(user)).to.deep.equal([]);
      now = tickTime(crossing + 300);
      await newMonitor({ market }).onTick(tick('ethereum', path.price('ethereum', crossing + 300)));
      const [closed] = await closes(user);
      expect(closed).to.deep.include({ reason: 'STOP_LOSS', closedAt: new Date(tickTime(crossing)).toISOString() });
      expect(closed!.execution!.mid).to.equal(after[c]);
      // The first monitor, scanning on from where it stopped, issues the same close: nothing more is appended.
      await harness.projector.caughtUp();
      await first.onTick(tick('ethereum', path.price('ethereum', crossing + 300)));
      expect(await closes(user)).to.have.length(1);
    });

    it('closes a take profit at the first tick at or above the target', async function () {
      const user = randomUUID();
      const target = Math.max(...after.subarray(0, 200)) * 0.9999; // reached somewhere in the first 200 ticks
      const hitAt = after.findIndex((p) => p >= target);
      const entry = target / 1.05;
      expect(Math.min(...after.subarray(0, hitAt + 1)), 'the stop (2 % down) is not reached first').to.be.greaterThan(entry * 0.98);
      now = tickTime(opening);
      await trade(user, 'ETH', 'BUY', 0.1, entry, BOT);
      await harness.projector.caughtUp();
      now = tickTime(opening + 400);
      await newMonitor({ market }).onTick(tick('ethereum', path.price('ethereum', opening + 400)));
      const [closed] = await closes(user);
      expect(closed).to.deep.include({ reason: 'TAKE_PROFIT', closedAt: new Date(tickTime(opening + 1 + hitAt)).toISOString() });
      expect(closed!.execution!.mid).to.equal(after[hitAt]);
      expect(closed!.execution!.mid).to.be.at.least(closed!.execution!.level!);
    });

    it('moves a trailing stop with the highest tick since the entry and closes at the first tick below it (issue 17)', async function () {
      // Entry at the opening tick's price; the stop 0.5 % below the highest tick since, the target 10 stops up.
      const entry = path.price('ethereum', opening);
      const below = 1 - 0.5 / 100;
      const ticks = path.ticks('ethereum', opening + 1, new Float64Array(17_280));
      let highest = entry;
      let hit = -1;
      for (let i = 0; i < ticks.length && hit < 0; i++) {
        highest = Math.max(highest, ticks[i]!);
        if (ticks[i]! <= highest * below) hit = i;
      }
      expect(hit, 'the day has a trailing stop').to.be.greaterThan(0);
      expect(highest, 'the level moved up before it was hit').to.be.greaterThan(entry * 1.001);
      expect(Math.max(...ticks.subarray(0, hit + 1)), 'the target is not reached first').to.be.lessThan(entry * 1.05);
      const user = randomUUID();
      now = tickTime(opening);
      await trade(user, 'ETH', 'BUY', 0.1, entry, BOT);
      await parameters(user, { stopLossType: 'trailing', stopLossValue: 0.5, takeProfitRatio: 10 });
      await harness.projector.caughtUp();
      const monitor = newMonitor({ market });
      // Notices every ten minutes until the close: the scan follows the ticks in between.
      for (let t = opening + 120; (await closes(user)).length === 0 && t <= opening + hit + 120; t += 120) {
        now = tickTime(t);
        await monitor.onTick(tick('ethereum', path.price('ethereum', t)));
        await harness.projector.caughtUp();
      }
      const [closed, ...more] = await closes(user);
      expect(more).to.deep.equal([]);
      expect(closed).to.deep.include({ reason: 'STOP_LOSS', closedAt: new Date(tickTime(opening + 1 + hit)).toISOString() });
      expect(closed!.execution!.mid).to.equal(ticks[hit]);
      expect(closed!.execution!.level).to.equal(highest * below);
    });
  });
});
