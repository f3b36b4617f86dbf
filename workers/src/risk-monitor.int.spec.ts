/**
 * The risk monitor on the embedded stores (PGlite) with the projector running, fed ticks on the bus
 * (or handed them directly). With the simulated market's path (issue 17): a stop loss or take profit
 * closes at the first tick at or beyond its level since the position opened, at that tick's price
 * less the spread and impact and at its time, whichever notices came (one notice long after, the
 * others lost), also for a monitor started afresh, and never at a tick after now. Without a path (a
 * live source): at the first notice's price beyond the level. Every alert condition fires once, also
 * for a monitor started afresh; of two monitors on the same store only the lease holder works, and
 * the other takes over when it stops.
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
import { startHarness, type Harness } from '../../test/api-harness';
import { waitUntil } from '../../test/wait';
import { RiskMonitor } from './risk-monitor';

const MINUTE = 60_000;

describe('risk monitor (PGlite)', function () {
  this.timeout(120_000);
  let harness: Harness;
  let handler: CommandHandler;
  let now = Date.now();
  const monitors: RiskMonitor[] = [];

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date(now));
  });
  afterEach(async function () {
    for (const m of monitors.splice(0)) await m.stop();
  });
  after(async function () {
    await harness?.stop();
  });

  /** A monitor; by default on a market without a price path (the notices' prices are all it knows). */
  function newMonitor(options: { handler?: CommandHandler; market?: Pick<MarketData, 'ticks'> } = {}) {
    const monitor = new RiskMonitor({
      bus: harness.rt.infra.bus,
      readModels: harness.rt.infra.readModels,
      leases: harness.rt.infra.leases,
      leaseRetryMs: 20,
      handler: options.handler ?? handler,
      marketData: options.market ?? { ticks: null },
      clock: () => new Date(now),
      logger: silentLogger,
    });
    monitors.push(monitor);
    return monitor;
  }

  const meta = () => ({ actor: 'test', correlationId: randomUUID() });
  const iso = () => new Date(now).toISOString();

  async function trade(userId: string, symbol: string, side: 'BUY' | 'SELL', amount: number, price: number): Promise<string> {
    const tradeId = randomUUID();
    await handler.handle(portfolioDecider, portfolioStreamId(userId), { type: 'PlaceSimulatedTrade', data: { userId, tradeId, symbol, side, amount, price, source: { kind: 'MANUAL' } }, metadata: { now: iso() } }, meta());
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
    await trade(user, 'ETH', 'BUY', 1, 3000); // stop loss 2 % -> 2940, take profit 5 % -> 3150
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
    await trade(user, 'BTC', 'BUY', 0.01, 60_000); // take profit 5 % -> 63,000
    await settings(user, { stopLossPercent: 3 }); // stop 58,200
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

    const monitor = newMonitor();
    now += MINUTE;
    // ETH at 2500: value about 8,950 (a drawdown above 5 %), ETH 56 % of it, two positions, ETH down 15 % in 24 h.
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
    await trade(stopped, 'SOL', 'BUY', 10, 150); // stop loss 2 % -> 147
    await trade(concentrated, 'SOL', 'BUY', 20, 150); // 3,000 of the portfolio in SOL: above the 5 % maximum position
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
    await trade(later, 'SOL', 'BUY', 1, 149); // stop loss 2 % -> 146.02
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
      await trade(user, 'ETH', 'BUY', Math.round((1000 / entry) * 1e8) / 1e8, entry);
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
      await trade(user, 'ETH', 'BUY', 0.1, entry);
      await harness.projector.caughtUp();
      now = tickTime(opening + 400);
      await newMonitor({ market }).onTick(tick('ethereum', path.price('ethereum', opening + 400)));
      const [closed] = await closes(user);
      expect(closed).to.deep.include({ reason: 'TAKE_PROFIT', closedAt: new Date(tickTime(opening + 1 + hitAt)).toISOString() });
      expect(closed!.execution!.mid).to.equal(after[hitAt]);
      expect(closed!.execution!.mid).to.be.at.least(closed!.execution!.level!);
    });
  });
});
