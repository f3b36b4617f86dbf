/**
 * Backtest versus paper (issue 18): the house strategy backtested over a period the paper bot traded
 * gives the bot's trades, trade for trade to the cent, and comparePaper says they agree.
 *
 * The paper side is the real thing, as in workers/src/paper-replay.int.spec.ts: on the embedded stores
 * (PGlite, the projector), the signal engine evaluates ETH at every 5-minute boundary of the simulated
 * market, the trading bot follows the store and fills at each signal's tick, the risk monitor closes
 * what the path crosses and records the portfolio's peaks; time is an injected clock walked through
 * the period. The signal engine runs an hour before the period (so its signal stream has a last
 * signal, as it always has live); the user's bot is started at the period's start. Tight levels (a
 * trailing stop 0.5 % below the highest tick, positions of 30 %) give signal trades, stops and a
 * target or two.
 *
 * The backtest side: runBacktest of 'house-signals' at its defaults, ETH, the period, 10,000 USD (the
 * paper portfolio's starting cash), the user's risk profile, the live signal ids (signalIdFor) and
 * the signal events' ids (live-ids.ts) and the user's id (so the trade ids
 * are the bot's), the monitor's recorded peaks (the drawdown rule's
 * reference), over a market of the same seed. Then a run with another position size: the comparison
 * finds and explains the differences.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { comparePaper, type PaperRefusal } from '@papertrade/domain/backtest/compare-paper';
import { findStrategy } from '@papertrade/domain/backtest/contracts';
import { simulationMarket } from '@papertrade/domain/backtest/market';
import { runBacktestDetail, type BacktestConfig } from '@papertrade/domain/backtest/run-backtest';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { coinById } from '@papertrade/domain/market/coins';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { DEFAULT_RISK_PARAMETERS, type RiskParameters, type RiskProfile } from '@papertrade/domain/trading/contracts';
import { portfolioStreamId, type PortfolioEvent, type PortfolioPeakRecorded } from '@papertrade/domain/trading/portfolio';
import { riskStreamId, type BotSignalRefused } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { startHarness, type Harness } from '../../../test/api-harness';
import { RiskMonitor } from '../risk-monitor';
import { SignalEngine, type Timer } from '../signal-engine';
import { liveSignalEventIdOf, liveSignalIdOf } from './live-ids';
import { TradingBot } from '../trading-bot';

const START = Date.UTC(2026, 0, 7);
const HOURS = 24;
const END = START + HOURS * 3_600_000;
const CANDLE_MS = 5 * 60_000;
const SEED = 'backtest equals paper spec seed';
const PROFILE: RiskParameters = { ...DEFAULT_RISK_PARAMETERS, stopLossType: 'trailing', stopLossValue: 0.5, takeProfitRatio: 3, riskRewardRatio: 0.5, maxPositionSize: 30 };
const idleTimer: Timer = { set: () => undefined, clear: () => undefined };

describe('backtest equals paper: the house strategy over a period the paper bot traded (PGlite)', function () {
  this.timeout(600_000);
  let harness: Harness;
  let now = START;
  const clock = () => new Date(now);
  const market = new SimulatedMarketData(SEED, clock);
  const user = randomUUID();
  let paperEvents: PortfolioEvent[] = [];
  let refusals: PaperRefusal[] = [];
  let profile: RiskProfile;

  before(async function () {
    harness = await startHarness();
    const { eventStore, documents, leases, readModels, bus } = harness.rt.infra;
    const handler = new CommandHandler(eventStore, clock);
    const meta = () => ({ actor: 'test', correlationId: randomUUID() });
    now = START - 2 * 3_600_000;
    await handler.handle(subscriptionDecider, subscriptionStreamId(user), { type: 'ChangeSubscriptionByAdmin', data: { userId: user, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now: clock().toISOString() } }, meta());
    await handler.handle(riskDecider, riskStreamId(user), { type: 'ChangeRiskParameters', data: { userId: user, parameters: PROFILE }, metadata: { now: clock().toISOString() } }, meta());
    await harness.projector.caughtUp();

    const signals = new SignalEngine({ marketData: market, handler, clock, logger: silentLogger, timer: idleTimer, coins: [coinById('ethereum')] });
    const bot = new TradingBot({ eventStore, documents, leases, readModels, handler, marketData: market, clock, waitUntil: async (ms) => void (now = Math.max(now, ms)), logger: silentLogger, houseDemo: false });
    const monitor = new RiskMonitor({ bus, readModels, leases, handler, marketData: market, clock, logger: silentLogger });
    const notice = async () => {
      await harness.projector.caughtUp();
      const quote = await market.price('ethereum');
      await monitor.onTick({ coinId: 'ethereum', symbol: quote.symbol, price: quote.price, changePercent24h: quote.changePercent24h, at: quote.at });
    };

    signals.start();
    await bot.start();
    for (let boundary = START - 3_600_000; boundary < END; boundary += CANDLE_MS) {
      if (boundary === START) {
        now = START;
        await handler.handle(botDecider, botStreamId(user), { type: 'StartBot', data: { userId: user, premium: true }, metadata: { now: clock().toISOString() } }, meta());
        await harness.projector.caughtUp();
      }
      now = boundary + 1000;
      await notice();
      await signals.evaluateAll();
      await bot.follower.reached(await harness.head());
    }
    now = END - 1;
    await notice();
    await signals.stop();
    await bot.stop();
    expect(bot.status(), 'the bot was never late').to.include({ lateFills: 0, refused: 0, failures: 0 });

    paperEvents = (await eventStore.readStream(portfolioStreamId(user))).map((e) => ({ type: e.type, data: e.data }) as PortfolioEvent);
    refusals = (await eventStore.readStream(riskStreamId(user))).filter((e) => e.type === 'BotSignalRefused').map((e) => e.data as BotSignalRefused['data'] & { signalType: 'BUY' | 'SELL' });
    profile = (await handler.load(riskDecider, riskStreamId(user))).state.profile;
  });
  after(async function () {
    await harness?.stop();
  });

  const backtest = (parameters: RiskParameters | null) => {
    const sim = new SimulatedMarketData(SEED).simulation;
    const peaks = paperEvents.filter((e): e is PortfolioPeakRecorded => e.type === 'PortfolioPeakRecorded').map((e) => ({ atMs: Date.parse(e.data.recordedAt), valueMicros: e.data.valueMicros }));
    const config: BacktestConfig = { strategyId: 'house-signals', symbol: 'ETH', startMs: START, endMs: END, initialCapital: 10_000, parameters: Object.fromEntries(Object.entries(findStrategy('house-signals')!.parameters).map(([k, v]) => [k, v.default])) };
    const riskProfile: RiskProfile = parameters ? { ...profile, ...parameters } : profile;
    return runBacktestDetail(config, simulationMarket(sim, liveSignalIdOf, liveSignalEventIdOf), { rules: { profile: riskProfile }, userId: user, peaks });
  };

  it('the paper bot traded the period: signal trades, trailing stops, refusals', function () {
    const placed = paperEvents.filter((e) => e.type === 'SimulatedTradePlaced');
    const closed = paperEvents.filter((e) => e.type === 'PositionClosed');
    expect(placed.length, 'signal trades').to.be.greaterThan(10);
    expect(closed.length, 'stops and targets').to.be.greaterThan(2);
  });

  it('agrees trade for trade to the cent, and comparePaper says so', function () {
    const run = backtest(null);
    const report = comparePaper({ backtestTrades: run.trades, paperEvents, refusals, startMs: START, endMs: END, symbol: 'ETH', trailing: true });
    expect(report.differences.map((d) => d.explanation)).to.deep.equal([]);
    expect(report.agree).to.equal(true);
    expect(report.matched).to.equal(report.paperTrades);
    expect(report.matched).to.equal(report.backtestTrades);
    expect(report.matched).to.be.greaterThan(12);
    // And beyond the cent: the very events, fills and closes.
    const fills = (events: PortfolioEvent[]) => events.filter((e) => e.type === 'SimulatedTradePlaced' || e.type === 'PositionClosed').filter((e) => !(e.type === 'SimulatedTradePlaced' && e.data.tradeId.startsWith('end-of-test:')));
    const a = fills(run.events);
    const b = fills(paperEvents);
    for (let i = 0; i < Math.max(a.length, b.length); i++) expect(a[i], `fill ${i}`).to.deep.equal(b[i]);
  });

  it('finds and explains the differences when the settings differ (positions of 10 % instead of 30 %)', function () {
    const run = backtest({ ...PROFILE, maxPositionSize: 10 });
    const report = comparePaper({ backtestTrades: run.trades, paperEvents, refusals, startMs: START, endMs: END, symbol: 'ETH', trailing: true });
    expect(report.agree).to.equal(false);
    expect(report.differences.length).to.be.greaterThan(5);
    const fill = report.differences.find((d) => d.kind === 'different-fill')!;
    expect(fill.explanation).to.match(/another amount/);
  });
});
