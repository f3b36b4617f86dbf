/**
 * A strategy's Backtest over HTTP on the embedded app (PGlite, the projector and a job runner with the
 * backtest kinds in this process, the stored models read as the workers read them): POST
 * /api/strategies/{id}/backtest queues the strategy itself with its configuration through the backtest
 * service (its slot, stream and job) and records it on the strategy's stream; when the job completes,
 * GET /api/backtest/{id} answers 200 with its result and notes, the card's figures come from that
 * backtest (fewer than 20 paper round trips) and say so, and the performance series is its round trips.
 * All three types: technical (its own stops), arbitrage (both legs per round trip), neural (a stored
 * model trained during the period decides from its training on, nothing before). Bad input appends nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { JobRunner } from '@papertrade/workers/jobs/job-runner';
import { backtestJobs } from '@papertrade/workers/jobs/backtest-jobs';
import { inProcessBacktestEngine } from '@papertrade/workers/jobs/backtest-engine';
import { BacktestRunnerThread } from '@papertrade/workers/jobs/backtest-runner-thread';
import { strategySignalIdFor } from '@papertrade/workers/strategies/strategy-signal-ids';
import { configIdOf, configKey } from '@papertrade/domain/strategies/strategy-catalogue';
import { BOT_LATENCY_MS } from '@papertrade/domain/trading/engine/bot-timing';
import { storedStrategyModels } from '@papertrade/workers/strategies/strategy-models';
import { ML_MODELS_COLLECTION } from '@papertrade/workers/ml/model-training-job';
import { trainModel } from '@papertrade/workers/ml/trainers';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import { parametersOf } from '@papertrade/domain/ml/model-types';
import { syntheticCandleColumns } from '@papertrade/domain/ml/synthetic-candles.fixtures';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';

describe('strategy backtest API (HTTP, embedded)', function () {
  this.timeout(240_000);
  let h: Harness;
  let runner: JobRunner;
  let token: string;
  let userId: string;
  let handler: CommandHandler;
  // The runs go on a backtest thread, as in the workers service (the neural one's plan is made here).
  const thread = new BacktestRunnerThread();

  before(async function () {
    h = await startHarness();
    handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const { readModels, bus } = h.rt.infra;
    runner = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      kinds: backtestJobs({ handler, events: h.rt.infra.eventStore, engine: inProcessBacktestEngine(h.rt.marketData, { thread, models: storedStrategyModels(h.rt.infra.eventStore, h.rt.infra.documents) }), logger: silentLogger }),
      pollMs: 100,
    });
    const t = randomUUID().slice(0, 8);
    const email = `sbt.${t}@example.com`;
    ({ userId } = await h.signup({ email, username: `sbt_${t}` }));
    const admin = await h.admin();
    await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
    await h.projector.caughtUp();
    token = await h.login(email, 'secret1');
  });
  after(async function () {
    await runner?.stop();
    await thread.close();
    await h?.stop();
  });

  it('bad input: 4xx saying why, nothing appended', async function () {
    const cases: Array<{ path: string; body: unknown; status: number; detail: RegExp }> = [
      { path: '/api/strategies/neural-network/backtest', body: { startDate: '2024-01-01', endDate: '2099-12-31', initialCapital: 10000 }, status: 400, detail: /endDate must not be in the future/ },
      { path: '/api/strategies/cross-exchange-arbitrage/backtest', body: { startDate: '2024-01-01', endDate: '2025-06-30', initialCapital: 10000 }, status: 400, detail: /the period must be at most 366 days/ },
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

  it('the technical strategy is backtested with its own RSI settings, stop loss and take profit; the card then measures that backtest and says so', async function () {
    await h.request('POST', '/api/strategies/rsi-technical/configure', { token, body: { rsiPeriod: 10, rsiOverbought: 65, stopLoss: 0.5, takeProfit: 0.8 } });
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/strategies/rsi-technical/backtest', { token, body: { startDate: '2024-01-01', endDate: '2024-01-15', initialCapital: 10000 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ strategyId: 'rsi-technical', status: 'QUEUED' });
    });
    expect(events.map((e) => e.type)).to.deep.equal(['BacktestSlotTaken', 'BacktestRequested', 'JobRequested', 'StrategyBacktestRequested']);
    const requested = events.find((e) => e.type === 'BacktestRequested')!.data as { config: { strategyId: string; symbol: string; parameters: Record<string, number> } };
    expect(requested.config).to.deep.include({ strategyId: 'rsi-technical', symbol: 'ETH', parameters: { rsiPeriod: 10, rsiOverbought: 65, stopLoss: 0.5, takeProfit: 0.8 } });
    const backtestId = String(events.find((e) => e.type === 'StrategyBacktestRequested')!.data['backtestId']);

    await runner.start();
    const detail = await completed(backtestId);
    expect(detail.result.notes.join(' ')).to.match(/at the stop loss \(0.5% below the entry close\) or at the take profit \(0.8% above it\)/);
    const card = (await h.request('GET', '/api/strategies', { token })).body.strategies.find((s: { id: string }) => s.id === 'rsi-technical');
    expect(card.figuresSource).to.equal('backtest');
    const sells = detail.result.totalTrades as number;
    expect(card.sampleSize, 'one round trip per closing sell').to.be.at.most(sells).and.at.least(1);
    if (card.sampleSize >= 20) expect(card.winRate).to.be.a('number');
    else expect(card).to.include({ winRate: null, figuresNote: 'not enough trades' });
    // Its signals carry the ids the live strategy engine gives the same configuration's signals (so its
    // trades carry the bot's trade ids, which the backtest-versus-paper report lines up by).
    const configId = configIdOf(configKey('technical', { rsiPeriod: 10, rsiOverbought: 65, stopLoss: 0.5, takeProfit: 0.8 }));
    const fills = (await h.request('GET', `/api/backtest/${backtestId}/trades?page=1&pageSize=50`, { token })).body.trades as Array<{ signalId?: string; execution: { intendedAt: string | null } }>;
    const bySignal = fills.filter((t) => t.signalId && t.execution.intendedAt);
    expect(bySignal.length).to.be.greaterThan(0);
    for (const t of bySignal) {
      // The order was meant to fill at the first tick at or after the candle's close plus the bot's latency.
      const closeMs = Math.floor((Date.parse(t.execution.intendedAt!) - BOT_LATENCY_MS) / 300_000) * 300_000;
      const candleTime = new Date(closeMs - 300_000).toISOString();
      expect(t.signalId).to.equal(strategySignalIdFor(configId, 'ETH', candleTime));
    }
    const perf = (await h.request('GET', '/api/strategies/rsi-technical/performance', { token })).body;
    expect(perf.source).to.equal('backtest');
    expect(perf.performance).to.have.length(card.sampleSize);
    expect(perf.summary.totalTrades).to.equal(card.sampleSize);
  });
  /** The backtest's detail once it has completed (GET /api/backtest/{id}, 200). */
  async function completed(backtestId: string) {
    await waitUntil(async () => ['COMPLETED', 'FAILED'].includes((await h.request('GET', `/api/backtest/${backtestId}`, { token })).body?.status), { timeoutMs: 180_000, message: 'the backtest to end' });
    const res = await h.request('GET', `/api/backtest/${backtestId}`, { token });
    expect(res.status).to.equal(200);
    expect(res.body.status, JSON.stringify(res.body.error)).to.equal('COMPLETED');
    return res.body;
  }

  async function backtest(strategyId: string, body: Record<string, unknown>): Promise<string> {
    const res = await h.request('POST', `/api/strategies/${strategyId}/backtest`, { token, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    return res.body.backtestId as string;
  }

  it('the arbitrage strategy is backtested: round trips between the simulated exchanges, both legs listed, net of both fees', async function () {
    await h.request('POST', '/api/strategies/cross-exchange-arbitrage/configure', { token, body: { minSpread: 0, maxPositionSize: 500 } });
    // A month: after the fees a spread pays about once a day on the simulated exchanges.
    const backtestId = await backtest('cross-exchange-arbitrage', { startDate: '2024-01-01', endDate: '2024-01-31', initialCapital: 10000 });
    const detail = await completed(backtestId);
    expect(detail.result.signals).to.be.greaterThan(0);
    expect(detail.result.totalTrades).to.equal(detail.result.signals - detail.result.refusedSignals);
    expect(detail.result.notes.join(' ')).to.match(/round trip of 500 USD/);
    const trades = (await h.request('GET', `/api/backtest/${backtestId}/trades?page=1&pageSize=50`, { token })).body;
    const [buy, sell] = trades.trades as Array<{ side: string; exchange: string; price: number; pnl: number | null; signalId: string }>;
    expect(buy).to.include({ side: 'BUY', pnl: null });
    expect(sell).to.include({ side: 'SELL', signalId: buy!.signalId });
    expect(sell!.exchange).to.not.equal(buy!.exchange);
    expect(sell!.price).to.be.greaterThan(buy!.price);
    const card = (await h.request('GET', '/api/strategies', { token })).body.strategies.find((s: { id: string }) => s.id === 'cross-exchange-arbitrage');
    expect(card).to.include({ figuresSource: 'backtest', sampleSize: detail.result.totalTrades });
  });

  it('the neural strategy is backtested walk-forward: a stored model trained during the period decides from then on, nothing before, and the notes say so', async function () {
    // A real logistic regression, stored as the trainer stores it, recorded as trained on 2024-01-02.
    const run = await trainModel(syntheticCandleColumns({ candles: 3000, seed: 5, rho: -0.3 }), 'logistic_regression', parametersOf('logistic_regression', {}));
    await h.rt.infra.documents.collection(ML_MODELS_COLLECTION).put(run.digest, { digest: run.digest, modelType: 'logistic_regression', bytes: run.bytes.length, content: run.bytes.toString('utf8'), storedAt: new Date().toISOString() });
    const trainedAt = '2024-01-02T00:00:00.000Z';
    await handler.handle(modelDecider, `model-${userId}`, { type: 'RecordModelTrained', data: { userId, model: { modelType: 'logistic_regression', trainingDays: 30, parameters: parametersOf('logistic_regression', {}), jobId: randomUUID(), symbol: 'ETH', candleMinutes: 5, asOf: trainedAt, trainSamples: 1, testSamples: 1, correct: 1, majority: 1, accuracy: 50, baseline: 50, low: 40, high: 60, verdict: 'no edge', trainingTimeMs: 1, digest: run.digest, trainedAt } }, metadata: { now: trainedAt } }, { actor: 'model-trainer', correlationId: randomUUID() });
    await h.request('POST', '/api/strategies/neural-network/configure', { token, body: { confidenceThreshold: 50 } });
    const backtestId = await backtest('neural-network', { startDate: '2024-01-01', endDate: '2024-01-03', initialCapital: 10000 });
    const detail = await completed(backtestId);
    const notes = detail.result.notes.join(' ');
    expect(notes).to.match(new RegExp(`Your model ${run.digest.slice(0, 8)} \\(logistic_regression, trained 2024-01-02 00:00 UTC`));
    // 2024-01-01 to the end of 2024-01-03: 864 candles; those closing before 2024-01-02 00:00, 287, had no model.
    expect(notes).to.match(/287 of 864 candles came before any model was trained and were not traded/);
    expect(detail.result.signals).to.be.greaterThan(0);
    const trades = (await h.request('GET', `/api/backtest/${backtestId}/trades?page=1&pageSize=50`, { token })).body.trades as Array<{ time: string }>;
    expect(trades.length).to.be.greaterThan(0);
    for (const t of trades) expect(t.time >= trainedAt, t.time).to.equal(true);
  });
});
