/**
 * Backtest versus paper through the service (issue 18): a premium user's paper bot trades a period on
 * the simulated market (the live signal engine, trading bot and risk monitor on the embedded stores,
 * time walked by an injected clock, as workers/src/backtest/backtest-equals-paper.int.spec.ts does);
 * then the user asks POST /api/backtest/run for the house signals over that period with the paper
 * portfolio's capital, the backtest job runs (trading as the user, the live signal ids, the monitor's
 * peaks: backtest-engine.ts, backtest-jobs.ts), and GET /api/backtest/{id}/compare-paper says the two
 * agree trade for trade to the cent. With other settings (positions of 10 %, through the same job) it
 * lists and explains the differences.
 */
import { expect } from 'chai';
import { findStrategy } from '@papertrade/domain/backtest/contracts';
import { comparePaperReportSchema } from '@papertrade/domain/backtest/contracts';
import { coinById } from '@papertrade/domain/market/coins';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import { DEFAULT_RISK_PARAMETERS, type RiskParameters } from '@papertrade/domain/trading/contracts';
import { riskStreamId } from '@papertrade/domain/trading/risk';
import { riskDecider } from '@papertrade/domain/trading/risk.decider';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { SimulatedMarketData } from '@papertrade/platform/market/simulated-market-data';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { RiskMonitor } from '../risk-monitor';
import { SignalEngine, type Timer } from '../signal-engine';
import { TradingBot } from '../trading-bot';
import { JobRunner } from './job-runner';
import { backtestJobs } from './backtest-jobs';
import { inProcessBacktestEngine } from './backtest-engine';
import { BacktestRunnerThread } from './backtest-runner-thread';

const START = Date.UTC(2026, 0, 8);
const HOURS = 24;
const END = START + HOURS * 3_600_000;
const CANDLE_MS = 5 * 60_000;
const SEED = 'backtest versus paper through the service';
const PROFILE: RiskParameters = { ...DEFAULT_RISK_PARAMETERS, stopLossType: 'trailing', stopLossValue: 0.5, takeProfitRatio: 3, riskRewardRatio: 0.5, maxPositionSize: 30 };
const idleTimer: Timer = { set: () => undefined, clear: () => undefined };

describe('backtest versus paper through the API: the house signals over a period the bot traded agree trade for trade (PGlite)', function () {
  this.timeout(600_000);
  let h: Harness;
  let runner: JobRunner;
  const thread = new BacktestRunnerThread();
  let now = START;
  const clock = () => new Date(now);
  const market = new SimulatedMarketData(SEED, clock);
  let user: { userId: string; token: string };

  before(async function () {
    h = await startHarness();
    const { eventStore, documents, leases, readModels, bus } = h.rt.infra;
    const email = `bvp.${Date.now()}@example.com`;
    const { userId } = await h.signup({ email, username: `bvp_${Date.now()}` });
    const admin = await h.admin();
    const up = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    expect(up.status).to.equal(200);
    user = { userId, token: await h.login(email, 'secret1') };

    // The paper side, on the spec's clock.
    const handler = new CommandHandler(eventStore, clock);
    const meta = () => ({ actor: 'test', correlationId: `bvp-${now}` });
    now = START - 2 * 3_600_000;
    await handler.handle(riskDecider, riskStreamId(userId), { type: 'ChangeRiskParameters', data: { userId, parameters: PROFILE }, metadata: { now: clock().toISOString() } }, meta());
    await h.projector.caughtUp();
    const signals = new SignalEngine({ marketData: market, handler, clock, logger: silentLogger, timer: idleTimer, coins: [coinById('ethereum')] });
    const bot = new TradingBot({ eventStore, documents, leases, readModels, handler, marketData: market, clock, waitUntil: async (ms) => void (now = Math.max(now, ms)), logger: silentLogger, houseDemo: false });
    const monitor = new RiskMonitor({ bus, readModels, leases, handler, marketData: market, clock, logger: silentLogger });
    const notice = async () => {
      await h.projector.caughtUp();
      const quote = await market.price('ethereum');
      await monitor.onTick({ coinId: 'ethereum', symbol: quote.symbol, price: quote.price, changePercent24h: quote.changePercent24h, at: quote.at });
    };
    signals.start();
    await bot.start();
    for (let boundary = START - 3_600_000; boundary < END; boundary += CANDLE_MS) {
      if (boundary === START) {
        now = START;
        await handler.handle(botDecider, botStreamId(userId), { type: 'StartBot', data: { userId, premium: true }, metadata: { now: clock().toISOString() } }, meta());
        await h.projector.caughtUp();
      }
      now = boundary + 1000;
      await notice();
      await signals.evaluateAll();
      await bot.follower.reached(await h.head());
    }
    now = END - 1;
    await notice();
    await signals.stop();
    await bot.stop();
    expect(bot.status(), 'the bot was never late').to.include({ lateFills: 0, refused: 0, failures: 0 });

    // The service side, as the workers run it: the backtest jobs on a worker thread over the same market
    // (its key; its clock stays at the period's end).
    const jobs = new CommandHandler(eventStore, () => new Date());
    runner = new JobRunner({ handler: jobs, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      kinds: backtestJobs({ handler: jobs, events: eventStore, engine: inProcessBacktestEngine(market, { thread }), logger: silentLogger }),
      pollMs: 100,
    });
    await runner.start();
  });
  after(async function () {
    await runner?.stop();
    await thread.close();
    await h?.stop();
  });

  async function backtestAndCompare() {
    const parameters = Object.fromEntries(Object.entries(findStrategy('house-signals')!.parameters).map(([k, v]) => [k, v.default]));
    const body = { strategyId: 'house-signals', symbol: 'ETH', startDate: new Date(START).toISOString(), endDate: new Date(END).toISOString(), initialCapital: 10_000, parameters };
    const res = await h.request('POST', '/api/backtest/run', { token: user.token, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    const id = String(res.body.id);
    await waitUntil(async () => ['COMPLETED', 'FAILED'].includes((await h.request('GET', `/api/backtest/${id}`, { token: user.token })).body.status), { timeoutMs: 120_000, intervalMs: 100, message: 'the backtest to end' });
    const compare = await h.request('GET', `/api/backtest/${id}/compare-paper`, { token: user.token });
    expect(compare.status, JSON.stringify(compare.body)).to.equal(200);
    return comparePaperReportSchema.parse(compare.body);
  }

  it('the same settings: every trade matched, to the cent; no difference', async function () {
    const report = await backtestAndCompare();
    expect(report.differences.map((d) => d.explanation)).to.deep.equal([]);
    expect(report).to.include({ agree: true });
    expect(report.matched).to.equal(report.paperTrades).and.to.equal(report.backtestTrades);
    expect(report.matched, 'the bot traded the period').to.be.greaterThan(5);
  });

  it('other settings (positions of 10 %): the differences, each explained', async function () {
    const res = await h.request('PUT', '/api/risk/parameters', { token: user.token, body: { ...PROFILE, maxPositionSize: 10 } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const report = await backtestAndCompare();
    expect(report.agree).to.equal(false);
    expect(report.differences.length).to.be.greaterThan(0);
    for (const d of report.differences) expect(d.explanation.length).to.be.greaterThan(20);
    expect(report.differences.some((d) => d.kind === 'different-fill' && /another amount/.test(d.explanation))).to.equal(true);
  });
});
