/**
 * The daily auto-retrain on the embedded app (PGlite, the projector, the model trainer as a long job):
 * a user whose own model is two days old is trained again, as a 'scheduled' request the daily limit
 * does not count, and the trainer really trains it (ModelTrained); a second round the same day asks
 * for nothing; a user who turned autoRetrain off in Bot Settings, and one without a model of their
 * own, are left alone.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { modelStreamId, type TrainedModel } from '@papertrade/domain/ml/model';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import { parametersOf } from '@papertrade/domain/ml/model-types';
import { RISK_PROJECTION, riskProfileOf, type RiskView } from '@papertrade/domain/trading/trading-view';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';
import { JobRunner } from '../jobs/job-runner';
import { AutoRetrainer } from './auto-retrain';
import { modelTrainingJob } from './model-training-job';
import { intervalSourceOf } from './training-candles';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('auto-retrain: each own model trained again once a day (embedded)', function () {
  this.timeout(120_000);
  let h: Harness;
  let handler: CommandHandler;
  let runner: JobRunner;

  before(async function () {
    h = await startHarness();
    handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const { readModels, bus, documents } = h.rt.infra;
    runner = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      kinds: [modelTrainingJob({ handler, documents, candles: intervalSourceOf(h.rt.marketData), clock: () => new Date(), logger: silentLogger })],
      pollMs: 100,
    });
  });
  after(async function () {
    await runner?.stop();
    await h?.stop();
  });

  async function newUser(): Promise<{ userId: string; token: string }> {
    const id = randomUUID().slice(0, 8);
    const email = `retrain.${id}@example.com`;
    const { userId } = await h.signup({ email, username: `rt_${id}` });
    return { userId, token: await h.login(email, 'secret1') };
  }

  /** A logistic regression the user trained two days ago (the model stream's request and its end). */
  async function modelTrainedTwoDaysAgo(userId: string): Promise<void> {
    const at = new Date(Date.now() - 2 * DAY_MS).toISOString();
    const settings = { modelType: 'logistic_regression' as const, trainingDays: 7, parameters: parametersOf('logistic_regression', {}) };
    const jobId = randomUUID();
    const meta = { actor: userId, correlationId: jobId };
    await handler.handle(modelDecider, modelStreamId(userId), { type: 'RequestModelTraining', data: { userId, jobId, reason: 'create', settings, fallback: settings, asOf: at, dailyLimit: 10 }, metadata: { now: at } }, meta);
    const model: TrainedModel = {
      ...settings, jobId, symbol: 'ETH', candleMinutes: 5, asOf: at, trainSamples: 1400, testSamples: 600, correct: 301, majority: 300,
      accuracy: 50.2, baseline: 50, low: 46.2, high: 54.2, verdict: 'no edge', trainingTimeMs: 30, digest: 'cd'.repeat(32), trainedAt: at,
    };
    await handler.handle(modelDecider, modelStreamId(userId), { type: 'RecordModelTrained', data: { userId, model }, metadata: { now: at } }, meta);
  }

  it('requests a scheduled training of a day-old model, the trainer trains it, and a second round asks for nothing', async function () {
    const due = await newUser();
    const off = await newUser();
    const none = await newUser();
    await modelTrainedTwoDaysAgo(due.userId);
    await modelTrainedTwoDaysAgo(off.userId);
    const saved = await h.request('POST', '/api/settings/bot', { token: off.token, body: { autoRetrain: false } });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    // Each user reads their model (and the setting) back: the projections have them.
    for (const { token } of [due, off]) {
      await waitUntil(async () => (await h.request('GET', '/api/ml-status', { token })).body.owner === 'own', { timeoutMs: 30_000, message: 'the own model in ml-status' });
    }
    const risks = await h.rt.infra.readModels.collection<RiskView>(RISK_PROJECTION);
    await waitUntil(async () => {
      const doc = await risks.get(off.userId);
      return doc !== null && riskProfileOf(doc).autoRetrain === false;
    }, { timeoutMs: 30_000, message: 'autoRetrain off in the risk read model' });

    const retrainer = new AutoRetrainer({ readModels: h.rt.infra.readModels, handler, clock: () => new Date(), logger: silentLogger });
    let requested: string[] = [];
    const events = await h.appendedBy(async () => {
      requested = await retrainer.runOnce();
    });
    expect(requested).to.include(due.userId).and.not.include(off.userId).and.not.include(none.userId);
    const mine = events.filter((e) => JSON.stringify(e.data).includes(due.userId));
    expect(mine.map((e) => e.type)).to.deep.equal(['ModelTrainingRequested', 'JobRequested']);
    expect(mine[0]!.data).to.include({ userId: due.userId, reason: 'scheduled', modelType: 'logistic_regression', trainingDays: 7 });
    expect(mine[1]!.data).to.include({ kind: 'model-training', jobId: mine[0]!.data.jobId });
    expect(events.some((e) => JSON.stringify(e.data).includes(off.userId) || JSON.stringify(e.data).includes(none.userId))).to.equal(false);

    // The same day again (another process, or the next round): nothing while it is pending.
    expect(await h.appendedBy(async () => void (await retrainer.runOnce()).filter((u) => u === due.userId))).to.satisfy((e: Array<{ data: unknown }>) => !e.some((x) => JSON.stringify(x.data).includes(due.userId)));

    await runner.start();
    await waitUntil(
      async () => {
        const status = (await h.request('GET', '/api/ml-status', { token: due.token })).body as { lastTraining: string | null; status: string };
        return status.status !== 'TRAINING' && status.lastTraining !== null && Date.now() - Date.parse(status.lastTraining) < DAY_MS;
      },
      { timeoutMs: 90_000, message: 'the scheduled training to end with a fresh model' },
    );
    const stream = await h.rt.infra.eventStore.readStream(modelStreamId(due.userId));
    expect(stream.map((e) => e.type).slice(-2)).to.deep.equal(['ModelTrainingRequested', 'ModelTrained']);
    expect(stream.at(-1)!.data).to.include({ reason: 'scheduled' });

    // Trained today: the next round leaves it alone.
    expect(await retrainer.runOnce()).to.not.include(due.userId);
  });
});
