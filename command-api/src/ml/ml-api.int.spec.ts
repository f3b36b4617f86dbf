/**
 * The model endpoints over HTTP on the embedded app (PGlite, the projector running, a job runner
 * with the model-training kind in this process): POST create-model and retrain answer 202 at once
 * with the job and append the request and the job; the training runs as a long job and GET
 * /api/ml-status then shows the held-out figures beside the baseline; GET /api/ml/model-types reports
 * the measured figures; one training at a time (409), a daily limit (429); visitors see the house
 * model; bad input on every endpoint answers 4xx with a problem naming the field and appends nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { JobRunner } from '@papertrade/workers/jobs/job-runner';
import { modelTrainingJob } from '@papertrade/workers/ml/model-training-job';
import { intervalSourceOf } from '@papertrade/workers/ml/training-candles';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';

const unique = () => randomUUID().slice(0, 8);

describe('ML API (HTTP, embedded)', function () {
  this.timeout(120_000);
  let h: Harness;
  let runner: JobRunner;
  let token: string;
  let userId: string;

  async function newUser(): Promise<{ token: string; userId: string }> {
    const id = unique();
    const email = `ml.${id}@example.com`;
    const { userId: uid } = await h.signup({ email, username: `ml_${id}` });
    return { token: await h.login(email, 'secret1'), userId: uid };
  }

  before(async function () {
    h = await startHarness({ ML_TRAININGS_PER_DAY: '3' });
    const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const { readModels, bus, documents } = h.rt.infra;
    runner = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      kinds: [modelTrainingJob({ handler, documents, candles: intervalSourceOf(h.rt.marketData), clock: () => new Date(), logger: silentLogger })],
      pollMs: 100,
    });
    ({ token, userId } = await newUser());
  });
  after(async function () {
    await runner?.stop();
    await h?.stop();
  });

  it('before any training: visitors and users see the house model as not trained, model types not measured yet', async function () {
    const status = await h.request('GET', '/api/ml-status');
    expect(status.status).to.equal(200);
    expect(status.body).to.include({ modelType: 'neural_network', modelName: 'Neural Network', trainingDataDays: 30, accuracy: null, baseline: null, verdict: null, lastTraining: null, owner: 'house', status: 'NOT_TRAINED' });
    const types = await h.request('GET', '/api/ml/model-types');
    expect(types.status).to.equal(200);
    expect(types.body.types.map((t: { id: string }) => t.id)).to.deep.equal(['neural_network', 'gradient_boosting', 'logistic_regression']);
    for (const t of types.body.types) expect(t).to.include({ accuracy: null, trainingTime: 'not measured yet' });
  });

  it('create-model answers 202 at once with the job; the job trains; ml-status shows accuracy beside the baseline, interval and verdict; ML_UPDATE reaches the user', async function () {
    const updates: unknown[] = [];
    const unsubscribe = await h.rt.infra.bus.subscribe(userRealtimeSubject(userId, 'ML_UPDATE'), (_s, p) => updates.push(p));
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/ml/create-model', { token, body: { modelType: 'logistic_regression', trainingDays: 7, parameters: { l2: 2 } } });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ modelType: 'logistic_regression', trainingDays: 7, status: 'QUEUED', accuracy: null });
      expect(res.body.jobId).to.be.a('string');
    });
    expect(events.map((e) => e.type)).to.deep.equal(['ModelTrainingRequested', 'JobRequested']);
    expect(events[0]!.data).to.include({ userId, modelType: 'logistic_regression', trainingDays: 7, reason: 'create' });
    expect(events[0]!.data.parameters).to.deep.equal({ l2: 2 });
    const jobId = String(events[1]!.data.jobId);
    // The same client reads its request at once: its own model, training, queued first.
    const queued = await h.request('GET', '/api/ml-status', { token });
    expect(queued.body).to.include({ owner: 'own', status: 'TRAINING', modelType: 'logistic_regression', trainingDataDays: 7, accuracy: null });
    expect(queued.body.training).to.include({ jobId, status: 'QUEUED', queuePosition: 1 });

    await runner.start();
    await waitUntil(() => updates.some((u) => (u as { status: string }).status === 'TRAINED'), { timeoutMs: 60_000, message: 'ML_UPDATE TRAINED' });
    const trained = await h.request('GET', '/api/ml-status', { token });
    const s = trained.body;
    expect(s).to.include({ owner: 'own', status: 'READY', modelType: 'logistic_regression', trainingDataDays: 7, lastJobId: jobId, training: null, symbol: 'ETH', candleMinutes: 5 });
    expect(s.accuracy).to.be.within(0, 100);
    expect(s.baseline).to.be.within(50, 100);
    expect(s.interval.low).to.be.at.most(s.accuracy);
    expect(s.interval.high).to.be.at.least(s.accuracy);
    expect(s.verdict).to.equal(s.interval.low > s.baseline ? 'edge' : 'no edge');
    expect(s.testSamples).to.be.greaterThan(200);
    expect(Date.parse(s.lastTraining)).to.be.greaterThan(0);
    expect(updates.at(-1)).to.deep.equal({ jobId, status: 'TRAINED', modelType: 'logistic_regression', accuracy: (await h.eventsSince(undefined)).filter((e) => e.type === 'ModelTrained').at(-1)!.data.accuracy });
    // The job completed once, with the stored model's digest as its result; the model is stored under it.
    const jobEvents = await h.rt.infra.eventStore.readStream(`job-${jobId}`);
    expect(jobEvents.map((e) => e.type)).to.deep.equal(['JobRequested', 'JobClaimed', 'JobCompleted']);
    const digest = String((jobEvents[2]!.data.result as { digest: string }).digest);
    const stored = await h.rt.infra.documents.collection<{ content: string }>('ml-models').get(digest);
    expect(stored?.content).to.be.a('string');
    const types = await h.request('GET', '/api/ml/model-types');
    const lr = types.body.types.find((t: { id: string }) => t.id === 'logistic_regression');
    // The same figure as the panel shows (one rounding of the recorded percent: ml-status-view.ts shownPercent).
    expect(lr.accuracy).to.equal(s.accuracy);
    expect(lr.trainingTime).to.match(/^\d+(\.\d)? (s|min)$/);
    expect(lr.measuredOn.trainingDays).to.equal(7);
    // A visitor still sees the house model.
    expect((await h.request('GET', '/api/ml-status')).body.owner).to.equal('house');
    unsubscribe();
  });

  it('retrain trains the current settings again; a second request while one runs is a 409 that appends nothing', async function () {
    await runner.stop();
    const first = await h.request('POST', '/api/ml/retrain', { token });
    expect(first.status, JSON.stringify(first.body)).to.equal(202);
    expect(first.body).to.include({ modelType: 'logistic_regression', trainingDays: 7 });
    const events = await h.appendedBy(async () => {
      const again = await h.request('POST', '/api/ml/create-model', { token, body: { modelType: 'neural_network' } });
      expect(again.status).to.equal(409);
      expect(again.body.detail).to.match(/already training for you/);
    });
    expect(events).to.deep.equal([]);
    await runner.start();
    await waitUntil(async () => (await h.request('GET', '/api/ml-status', { token })).body.lastJobId === first.body.jobId, { timeoutMs: 60_000, message: 'the retrain to end' });
  });

  it('the daily limit (3 here) answers 429 with Retry-After and appends nothing', async function () {
    // Two requests so far today (create, retrain); the third passes, the fourth is refused.
    await waitUntil(async () => (await h.request('POST', '/api/ml/retrain', { token })).status === 202, { timeoutMs: 60_000, intervalMs: 500, message: 'the third request (after the second ended)' });
    await waitUntil(async () => (await h.request('GET', '/api/ml-status', { token })).body.training === null, { timeoutMs: 60_000, intervalMs: 200, message: 'the third to end' });
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/ml/retrain', { token });
      expect(res.status).to.equal(429);
      expect(res.body.detail).to.match(/Daily training limit reached: 3/);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    });
    expect(events).to.deep.equal([]);
  });

  describe('bad input answers 4xx with a problem naming the field, and appends nothing', function () {
    const cases: Array<[string, string, string, RegExp, number?]> = [
      ['unknown model type', '/api/ml/create-model', JSON.stringify({ modelType: 'random_forest' }), /modelType must be one of neural_network, gradient_boosting, logistic_regression/],
      ['missing model type', '/api/ml/create-model', JSON.stringify({ trainingDays: 30 }), /modelType/],
      ['trainingDays too few', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', trainingDays: 6 }), /trainingDays must be from 7 to 365/],
      ['trainingDays too many', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', trainingDays: 366 }), /trainingDays must be from 7 to 365/],
      ['trainingDays a fraction', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', trainingDays: 30.5 }), /trainingDays must be a whole number/],
      ['trainingDays a string', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', trainingDays: '30' }), /trainingDays/],
      ['a parameter out of range', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', parameters: { epochs: 1000 } }), /parameters\.epochs.*epochs must be from 1 to 100/],
      ['a parameter of another type', '/api/ml/create-model', JSON.stringify({ modelType: 'logistic_regression', parameters: { epochs: 5 } }), /unknown parameter for logistic_regression: epochs/],
      ['a parameter of the wrong type', '/api/ml/create-model', JSON.stringify({ modelType: 'gradient_boosting', parameters: { maxDepth: 'deep' } }), /maxDepth must be a whole number/],
      ['parameters not an object', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', parameters: [1] }), /parameters must be an object/],
      ['an unknown field', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network', accuracy: 99 }), /accuracy/],
      ['__proto__ at the top', '/api/ml/create-model', '{"modelType":"neural_network","__proto__":{"isAdmin":true}}', /__proto__/],
      ['__proto__ in parameters', '/api/ml/create-model', '{"modelType":"neural_network","parameters":{"__proto__":{"x":1}}}', /__proto__/],
      ['a NUL in the model type', '/api/ml/create-model', JSON.stringify({ modelType: 'neural_network\u0000' }), /modelType/],
      ['malformed JSON', '/api/ml/create-model', '{"modelType": ', /JSON/],
      ['a body on retrain', '/api/ml/retrain', JSON.stringify({ modelType: 'neural_network' }), /modelType/],
    ];
    for (const [name, path, raw, detail] of cases) {
      it(`${name}: 400`, async function () {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', path, { token, raw });
          expect(res.status, JSON.stringify(res.body)).to.equal(400);
          expect(res.headers.get('content-type')).to.match(/application\/problem\+json/);
          expect(String(res.body.detail)).to.match(detail);
        });
        expect(events).to.deep.equal([]);
      });
    }

    it('no token or a bad token: 401; appends nothing', async function () {
      const events = await h.appendedBy(async () => {
        expect((await h.request('POST', '/api/ml/create-model', { body: { modelType: 'neural_network' } })).status).to.equal(401);
        expect((await h.request('POST', '/api/ml/retrain', {})).status).to.equal(401);
        expect((await h.request('POST', '/api/ml/retrain', { token: 'not-a-token' })).status).to.equal(401);
        expect((await h.request('GET', '/api/ml-status', { token: 'not-a-token' })).status).to.equal(401);
      });
      expect(events).to.deep.equal([]);
    });

    it('a query string on the GETs: 400', async function () {
      for (const path of ['/api/ml-status?x=1', '/api/ml/model-types?modelType=neural_network']) {
        const res = await h.request('GET', path);
        expect(res.status, path).to.equal(400);
        expect(res.headers.get('content-type')).to.match(/application\/problem\+json/);
      }
    });
  });
});
