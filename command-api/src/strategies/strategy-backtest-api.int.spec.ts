/**
 * A strategy's Backtest over HTTP on the embedded app (PGlite, the projector and a job runner with the
 * backtest kinds in this process): POST /api/strategies/rsi-technical/backtest queues the engine's RSI
 * strategy with the strategy's own period and levels through the backtest service (its slot, stream and
 * job), records it on the strategy's stream; when the job completes the card's figures come from that
 * backtest (fewer than 20 paper round trips) and say so, and the performance series is its round trips.
 * Neural and arbitrage are refused (400, saying why); bad input appends nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { JobRunner } from '@papertrade/workers/jobs/job-runner';
import { backtestJobs } from '@papertrade/workers/jobs/backtest-jobs';
import { inProcessBacktestEngine } from '@papertrade/workers/jobs/backtest-engine';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';

describe('strategy backtest API (HTTP, embedded)', function () {
  this.timeout(240_000);
  let h: Harness;
  let runner: JobRunner;
  let token: string;

  before(async function () {
    h = await startHarness();
    const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const { readModels, bus } = h.rt.infra;
    runner = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      kinds: backtestJobs({ handler, events: h.rt.infra.eventStore, engine: inProcessBacktestEngine(h.rt.marketData), logger: silentLogger }),
      pollMs: 100,
    });
    const t = randomUUID().slice(0, 8);
    const email = `sbt.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `sbt_${t}` });
    const admin = await h.admin();
    await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    await h.projector.caughtUp();
    token = await h.login(email, 'secret1');
  });
  after(async function () {
    await runner?.stop();
    await h?.stop();
  });

  it('bad input and the strategies the engine cannot run: 4xx saying why, nothing appended', async function () {
    const cases: Array<{ path: string; body: unknown; status: number; detail: RegExp }> = [
      { path: '/api/strategies/neural-network/backtest', body: { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 }, status: 400, detail: /cannot backtest the neural strategy/ },
      { path: '/api/strategies/cross-exchange-arbitrage/backtest', body: { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 }, status: 400, detail: /cannot backtest the arbitrage strategy/ },
      { path: '/api/strategies/rsi-technical/backtest', body: { startDate: '2024-02-30', endDate: '2024-12-31', initialCapital: 10000 }, status: 400, detail: /startDate must be a real date/ },
      { path: '/api/strategies/rsi-technical/backtest', body: { startDate: '2024-06-01', endDate: '2024-01-01', initialCapital: 10000 }, status: 400, detail: /endDate must be after startDate/ },
      { path: '/api/strategies/rsi-technical/backtest', body: { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 5 }, status: 400, detail: /initialCapital must be from 100/ },
      { path: '/api/strategies/rsi-technical/backtest', body: { startDate: '2024-01-01', endDate: '2024-12-31' }, status: 400, detail: /initialCapital/ },
      { path: '/api/strategies/rsi-technical/backtest', body: { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000, symbol: 'ETH' }, status: 400, detail: /symbol/ },
      { path: '/api/strategies/rsi-technical/backtest', body: { startDate: '2019-01-01', endDate: '2019-12-31', initialCapital: 10000 }, status: 400, detail: /startDate must not be before the history's start/ },
      { path: '/api/strategies/none/backtest', body: { startDate: '2024-01-01', endDate: '2024-12-31', initialCapital: 10000 }, status: 404, detail: /Strategy not found/ },
    ];
    const events = await h.appendedBy(async () => {
      for (const c of cases) {
        const res = await h.request('POST', c.path, { token, body: c.body });
        expect(res.status, `${c.path} ${JSON.stringify(c.body)}: ${JSON.stringify(res.body)}`).to.equal(c.status);
        expect(res.body.detail).to.match(c.detail);
      }
    });
    expect(events).to.have.length(0);
  });

  it('the technical strategy is backtested by the engine with its own RSI settings; the card then measures that backtest and says so', async function () {
    await h.request('POST', '/api/strategies/rsi-technical/configure', { token, body: { rsiPeriod: 10, rsiOverbought: 65 } });
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/strategies/rsi-technical/backtest', { token, body: { startDate: '2024-01-01', endDate: '2024-01-15', initialCapital: 10000 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ strategyId: 'rsi-technical', status: 'QUEUED' });
    });
    expect(events.map((e) => e.type)).to.deep.equal(['BacktestSlotTaken', 'BacktestRequested', 'JobRequested', 'StrategyBacktestRequested']);
    const requested = events.find((e) => e.type === 'BacktestRequested')!.data as { config: { strategyId: string; symbol: string; parameters: Record<string, number> } };
    expect(requested.config).to.deep.include({ strategyId: 'rsi-mean-reversion', symbol: 'ETH', parameters: { rsiPeriod: 10, oversold: 35, overbought: 65 } });
    const backtestId = String(events.find((e) => e.type === 'StrategyBacktestRequested')!.data['backtestId']);

    await runner.start();
    await waitUntil(async () => (await h.request('GET', `/api/backtest/${backtestId}`, { token })).body?.status === 'COMPLETED', { timeoutMs: 180_000, message: 'the backtest to complete' });
    const detail = (await h.request('GET', `/api/backtest/${backtestId}`, { token })).body;
    const card = (await h.request('GET', '/api/strategies', { token })).body.strategies.find((s: { id: string }) => s.id === 'rsi-technical');
    expect(card.figuresSource).to.equal('backtest');
    const sells = detail.result.totalTrades as number;
    expect(card.sampleSize, 'one round trip per closing sell').to.be.at.most(sells).and.at.least(1);
    if (card.sampleSize >= 20) expect(card.winRate).to.be.a('number');
    else expect(card).to.include({ winRate: null, figuresNote: 'not enough trades' });
    const perf = (await h.request('GET', '/api/strategies/rsi-technical/performance', { token })).body;
    expect(perf.source).to.equal('backtest');
    expect(perf.performance).to.have.length(card.sampleSize);
    expect(perf.summary.totalTrades).to.equal(card.sampleSize);
  });
});
