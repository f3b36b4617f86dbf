/**
 * The backtest endpoints over HTTP on the embedded app (PGlite, the projector running, a job runner
 * with the backtest kinds in this process): the strategy list is public; POST /api/backtest/run is
 * Premium, answers 202 at once with the queued run and appends the slot, the request and the job; the
 * same client reads it at once (QUEUED, its place); one run per user (409); the job runs the engine
 * and the history, the result and every trade page are readable, the trades equal to an engine run
 * of the same settings; another user's id is a 404; bad input on every endpoint answers 4xx naming
 * the field and appends nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { BACKTEST_JOB_KIND } from '@papertrade/domain/backtest/backtest';
import { STRATEGY_REQUIRED_MESSAGE, backtestStrategies, comparePaperReportSchema, type BacktestTrade } from '@papertrade/domain/backtest/contracts';
import { backtestDetailSchema, backtestJobResponseSchema, backtestTradesPageSchema } from '@papertrade/domain/backtest/service-contracts';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import { DEFAULT_RISK_PROFILE } from '@papertrade/domain/trading/contracts';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import { JobRunner } from '@papertrade/workers/jobs/job-runner';
import { backtestJobs } from '@papertrade/workers/jobs/backtest-jobs';
import { inProcessBacktestEngine } from '@papertrade/workers/jobs/backtest-engine';
import { BacktestRunnerThread } from '@papertrade/workers/jobs/backtest-runner-thread';
import { WalkForwardPool } from '@papertrade/workers/backtest/walk-forward-pool';
import { startHarness, type Harness } from '../../../test/api-harness';
import { waitUntil } from '../../../test/wait';

const unique = () => randomUUID().slice(0, 8);
/**
 * One turn of the event loop's I/O: after a long synchronous engine run here, the server may have
 * closed the client's idle keep-alive socket meanwhile; its close must be read before the next fetch,
 * or the fetch reuses the dead socket (ECONNRESET). Not a sleep: it waits for no time, only for the turn.
 */
const ioTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A period well in the past: seven weeks ending a week ago. */
const START = day(Date.now() - 56 * DAY);
const END = day(Date.now() - 8 * DAY);
const RUN = { strategyId: 'rsi-mean-reversion', symbol: 'ETH', startDate: START, endDate: END, initialCapital: 10_000, parameters: { rsiPeriod: 10, oversold: 35, overbought: 65 } };

describe('Backtest API (HTTP, embedded)', function () {
  this.timeout(180_000);
  let h: Harness;
  let runner: JobRunner;
  const thread = new BacktestRunnerThread();
  let pool: WalkForwardPool;
  let premium: { token: string; userId: string };
  let other: { token: string; userId: string };
  let free: { token: string; userId: string };

  async function newUser(isPremium: boolean): Promise<{ token: string; userId: string }> {
    const t = unique();
    const email = `bt.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `bt_${t}` });
    if (isPremium) {
      const admin = await h.admin();
      const up = await h.request('PUT', `/api/admin/users/${userId}`, { token: admin.token, body: { subscriptionTier: 'PREMIUM', subscriptionStatus: 'ACTIVE' } });
      if (up.status !== 200) throw new Error(`upgrade failed: ${up.status}`);
    }
    await h.projector.caughtUp();
    return { userId, token: await h.login(email, 'secret1') };
  }

  before(async function () {
    h = await startHarness();
    const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const { readModels, bus } = h.rt.infra;
    pool = new WalkForwardPool(2);
    runner = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      // As the workers service runs them: each backtest on a worker thread, a walk-forward's windows on the pool's.
      kinds: backtestJobs({ handler, events: h.rt.infra.eventStore, engine: inProcessBacktestEngine(h.rt.marketData, { thread, walkForwardPool: pool }), logger: silentLogger }),
      pollMs: 100,
    });
    premium = await newUser(true);
    other = await newUser(true);
    free = await newUser(false);
  });
  after(async function () {
    await runner?.stop();
    await thread.close();
    await pool?.close();
    await h?.stop();
  });

  it('the strategy list is public: visitors and free users see every strategy with its bounds', async function () {
    for (const token of [undefined, free.token]) {
      const res = await h.request('GET', '/api/backtest/strategies', token ? { token } : {});
      expect(res.status).to.equal(200);
      expect(res.body.map((s: { id: string }) => s.id)).to.deep.equal(['rsi-mean-reversion', 'ma-crossover', 'macd-momentum', 'house-signals']);
      expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(backtestStrategies)));
      for (const s of res.body) for (const p of Object.values(s.parameters) as Array<{ min: number; max: number; default: number }>) expect(p.min).to.be.at.most(p.default).and.to.be.at.most(p.max);
    }
  });

  it('free users get 403 Premium subscription required on run, walk-forward, history and a result; visitors 401; nothing appended', async function () {
    const events = await h.appendedBy(async () => {
      for (const [method, path, body] of [['POST', '/api/backtest/run', RUN], ['POST', '/api/backtest/walk-forward', { ...RUN, parameters: undefined }], ['GET', '/api/backtest/history', undefined], ['GET', `/api/backtest/${randomUUID()}`, undefined], ['GET', `/api/backtest/${randomUUID()}/trades`, undefined]] as const) {
        const res = await h.request(method, path, { token: free.token, ...(body ? { body } : {}) });
        expect(res.status, path).to.equal(403);
        expect(res.body.detail).to.match(/Premium subscription required/);
        const visitor = await h.request(method, path, body ? { body } : {});
        expect(visitor.status, path).to.equal(401);
      }
    });
    expect(events).to.deep.equal([]);
  });

  it('run answers 202 at once; the same client reads it QUEUED with its place; a second run is a 409; the job completes and the result and every trade page are readable', async function () {
    const updates: Array<{ status: string }> = [];
    const unsubscribe = await h.rt.infra.bus.subscribe(userRealtimeSubject(premium.userId, 'BACKTEST_UPDATE'), (_s, p) => updates.push(p as { status: string }));
    const progress: Array<{ jobId: string; status: string; progress: number }> = [];
    const unsubscribeProgress = await h.rt.infra.bus.subscribe(userRealtimeSubject(premium.userId, 'JOB_PROGRESS'), (_s, p) => progress.push(p as { jobId: string; status: string; progress: number }));
    let id = '';
    let jobId = '';
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/backtest/run', { token: premium.token, body: RUN });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const body = backtestJobResponseSchema.parse(res.body);
      expect(body).to.include({ mode: 'backtest', status: 'QUEUED', queuePosition: 1 });
      ({ id, jobId } = body);
    });
    expect(events.map((e) => e.type)).to.deep.equal(['BacktestSlotTaken', 'BacktestRequested', 'JobRequested']);
    expect(events.map((e) => e.streamId)).to.deep.equal([`backtester-${premium.userId}`, `backtest-${id}`, `job-${jobId}`]);
    expect(events[1]!.data).to.deep.include({ backtestId: id, userId: premium.userId, jobId, mode: 'backtest' });
    expect(events[1]!.data.config).to.deep.equal({ ...RUN, startDate: `${START}T00:00:00.000Z`, endDate: new Date(Date.parse(END) + DAY).toISOString() });
    expect(events[2]!.data).to.deep.include({ kind: BACKTEST_JOB_KIND, params: { backtestId: id, userId: premium.userId, mode: 'backtest' }, requestedBy: premium.userId });

    // Read at once, no header: the caller's own write is waited for.
    const queued = await h.request('GET', `/api/backtest/${id}`, { token: premium.token });
    expect(queued.status).to.equal(200);
    expect(backtestDetailSchema.parse(queued.body)).to.include({ id, status: 'QUEUED', queuePosition: 1, result: null, tradeCount: null });
    const history = await h.request('GET', '/api/backtest/history', { token: premium.token });
    expect(history.body).to.have.length(1);
    expect(history.body[0]).to.include({ id, status: 'QUEUED', totalTrades: null, winRate: null, totalReturn: null, strategyId: 'rsi-mean-reversion', symbol: 'ETH', initialCapital: 10_000 });
    expect(history.body[0].configId).to.match(/^[0-9a-f]{16}$/);

    const early = await h.request('GET', `/api/backtest/${id}/compare-paper`, { token: premium.token });
    expect(early.status).to.equal(409);
    expect(early.body.detail).to.match(/has not completed yet/);

    const second = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/backtest/run', { token: premium.token, body: { ...RUN, symbol: 'BTC' } });
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.match(/already have a backtest queued or running/);
      const wf = await h.request('POST', '/api/backtest/walk-forward', { token: premium.token, body: { strategyId: 'ma-crossover', startDate: START, endDate: END, windows: 2 } });
      expect(wf.status).to.equal(409);
    });
    expect(second).to.deep.equal([]);

    await runner.start();
    await waitUntil(async () => (await h.request('GET', `/api/backtest/${id}`, { token: premium.token })).body.status === 'COMPLETED', { timeoutMs: 120_000, intervalMs: 200, message: 'the backtest to complete' });
    await waitUntil(() => updates.some((u) => u.status === 'COMPLETED'), { message: 'BACKTEST_UPDATE COMPLETED' });
    unsubscribe();
    // Progress while it ran (from the thread, while the job's process stayed responsive), then the end.
    await waitUntil(() => progress.some((m) => m.status === 'COMPLETED'), { message: 'JOB_PROGRESS COMPLETED' });
    unsubscribeProgress();
    expect(progress.every((m) => m.jobId === jobId)).to.equal(true);
    const running = progress.filter((m) => m.status === 'RUNNING').map((m) => m.progress);
    expect(running.some((f) => f > 0 && f < 1), JSON.stringify(progress)).to.equal(true);
    expect(running).to.deep.equal([...running].sort((x, y) => x - y));
    const done = backtestDetailSchema.parse((await h.request('GET', `/api/backtest/${id}`, { token: premium.token })).body);
    expect(done).to.include({ status: 'COMPLETED', queuePosition: null, error: null, report: null });
    const result = done.result!;
    expect(result.totalReturn).to.be.closeTo(result.finalBalance / 10_000 - 1, 1e-4);
    expect(result.equityCurve.length).to.be.within(2, 1000);

    // The same settings through the engine directly, in this thread: the very trades, every one on some page.
    const engine = inProcessBacktestEngine(h.rt.marketData);
    const direct = await engine.backtest({ userId: premium.userId, config: events[1]!.data.config as never, profile: DEFAULT_RISK_PROFILE }, () => {}, new AbortController().signal);
    await ioTurn();
    expect(done.tradeCount).to.equal(direct.trades.length);
    expect(result).to.deep.equal(JSON.parse(JSON.stringify(direct.result)));
    const pageSize = 7;
    const all: BacktestTrade[] = [];
    for (let page = 1; ; page++) {
      const res = await h.request('GET', `/api/backtest/${id}/trades?page=${page}&pageSize=${pageSize}`, { token: premium.token });
      expect(res.status).to.equal(200);
      const body = backtestTradesPageSchema.parse(res.body);
      expect(body).to.include({ page, pageSize, total: direct.trades.length, pages: Math.ceil(direct.trades.length / pageSize) });
      if (body.trades.length === 0) break;
      all.push(...body.trades);
    }
    expect(all).to.deep.equal(JSON.parse(JSON.stringify(direct.trades)));
    const first = (await h.request('GET', `/api/backtest/${id}/trades`, { token: premium.token })).body;
    expect(first).to.include({ page: 1, pageSize: 50 });
    expect(first.trades).to.deep.equal(all.slice(0, 50));

    // This user never paper-traded: every backtest trade but the end-of-test sale is missing in paper, each explained.
    const compare = await h.request('GET', `/api/backtest/${id}/compare-paper`, { token: premium.token });
    expect(compare.status).to.equal(200);
    const report = comparePaperReportSchema.parse(compare.body);
    const compared = direct.trades.filter((t) => t.reason !== 'END_OF_TEST');
    expect(report).to.include({ backtestTrades: compared.length, paperTrades: 0, matched: 0, agree: compared.length === 0 });
    expect(Number(compare.headers.get('x-differences-total'))).to.equal(compared.length);
    expect(report.differences.length).to.equal(Math.min(250, compared.length));
    for (const d of report.differences) {
      expect(d.kind).to.equal('missing-in-paper');
      expect(d.explanation).to.match(/^The backtest /);
    }

    const row = (await h.request('GET', '/api/backtest/history', { token: premium.token })).body[0];
    expect(row).to.include({ id, status: 'COMPLETED', totalTrades: result.totalTrades, winRate: result.winRate, totalReturn: result.totalReturn });
    // The job completed once; the slot is free again.
    expect((await h.rt.infra.eventStore.readStream(`job-${jobId}`)).map((e) => e.type)).to.deep.equal(['JobRequested', 'JobClaimed', 'JobCompleted']);
    expect((await h.rt.infra.eventStore.readStream(`backtester-${premium.userId}`)).map((e) => e.type)).to.deep.equal(['BacktestSlotTaken', 'BacktestSlotReleased']);
  });

  it("another user's id, an unknown id and a malformed id are 404; the other user's history is empty", async function () {
    const [mine] = (await h.request('GET', '/api/backtest/history', { token: premium.token })).body;
    for (const path of [`/api/backtest/${mine.id}`, `/api/backtest/${mine.id}/trades`, `/api/backtest/${mine.id}/compare-paper`]) {
      const res = await h.request('GET', path, { token: other.token });
      expect(res.status, path).to.equal(404);
      expect(res.body.detail).to.equal('No such backtest');
    }
    for (const path of [`/api/backtest/${randomUUID()}`, '/api/backtest/not-an-id', '/api/backtest/..%2Fhistory/trades', `/api/backtest/${mine.id}%00`, '/api/backtest/%00/trades']) expect((await h.request('GET', path, { token: premium.token })).status, path).to.equal(404);
    expect((await h.request('GET', '/api/backtest/history', { token: other.token })).body).to.deep.equal([]);
  });

  it('a walk-forward completes with its report: each window\'s choice within the bounds, in- and out-of-sample figures, the stitched curve; compare-paper is a 409 for it', async function () {
    const res = await h.request('POST', '/api/backtest/walk-forward', { token: other.token, body: { strategyId: 'ma-crossover', symbol: 'BTC', startDate: START, endDate: END, windows: 2, parameterSets: 3, objective: 'totalReturn' } });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    expect(res.body).to.include({ mode: 'walk-forward', status: 'QUEUED' });
    const id = res.body.id as string;
    const done = await waitUntil(async () => {
      const r = await h.request('GET', `/api/backtest/${id}`, { token: other.token });
      return r.body.status === 'COMPLETED' || r.body.status === 'FAILED' ? backtestDetailSchema.parse(r.body) : null;
    }, { timeoutMs: 120_000, intervalMs: 200, message: 'the walk-forward to end' });
    expect(done, JSON.stringify(done.error)).to.include({ mode: 'walk-forward', status: 'COMPLETED', result: null, tradeCount: null });
    const report = done.report!;
    expect(report).to.include({ strategyId: 'ma-crossover', symbol: 'BTC', objective: 'totalReturn' });
    expect(report.windows).to.have.length(2);
    const bounds = backtestStrategies.find((s) => s.id === 'ma-crossover')!.parameters;
    for (const w of report.windows) {
      expect(w.inSample.setsTried).to.be.within(1, 3);
      for (const [name, value] of Object.entries(w.inSample.parameters)) expect(value).to.be.within(bounds[name]!.min, bounds[name]!.max);
      expect(Date.parse(w.inSample.end)).to.be.at.most(Date.parse(w.outOfSample.start));
    }
    expect(report.stitchedEquity.length).to.be.greaterThan(1);
    // The windows ran on the pool's threads: the same report as one run in this thread.
    const requested = (await h.rt.infra.eventStore.readStream(`backtest-${id}`))[0]!.data;
    const direct = await inProcessBacktestEngine(h.rt.marketData).walkForward({ userId: other.userId, config: requested.config as never, profile: DEFAULT_RISK_PROFILE }, () => {}, new AbortController().signal);
    await ioTurn();
    expect(report).to.deep.equal(JSON.parse(JSON.stringify(direct)));
    const row = (await h.request('GET', '/api/backtest/history', { token: other.token })).body.find((r: { id: string }) => r.id === id);
    expect(row).to.include({ status: 'COMPLETED', totalTrades: report.outOfSampleSummary.totalTrades, totalReturn: report.outOfSampleSummary.totalReturn });
    const compare = await h.request('GET', `/api/backtest/${id}/compare-paper`, { token: other.token });
    expect(compare.status).to.equal(409);
    expect(compare.body.detail).to.match(/walk-forward run has no single trade list/);
    expect((await h.rt.infra.eventStore.readStream(`backtester-${other.userId}`)).map((e) => e.type)).to.deep.equal(['BacktestSlotTaken', 'BacktestSlotReleased']);
  });

  it('a run that fails records why: FAILED with the message on the result and BACKTEST_UPDATE, the slot released', async function () {
    await runner.stop();
    const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const { readModels, bus } = h.rt.infra;
    const engine = inProcessBacktestEngine(h.rt.marketData);
    const failing = new JobRunner({ handler, readModels, bus, clock: () => new Date(), logger: silentLogger }, {
      kinds: backtestJobs({ handler, events: h.rt.infra.eventStore, engine: { ...engine, backtest: async () => { throw new Error('The price path has no ticks for this period'); } }, logger: silentLogger }),
      pollMs: 100,
    });
    const updates: Array<{ status: string; error: string | null }> = [];
    const unsubscribe = await bus.subscribe(userRealtimeSubject(other.userId, 'BACKTEST_UPDATE'), (_s, p) => updates.push(p as { status: string; error: string | null }));
    try {
      await failing.start();
      const res = await h.request('POST', '/api/backtest/run', { token: other.token, body: RUN });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const failed = await waitUntil(async () => {
        const r = await h.request('GET', `/api/backtest/${res.body.id}`, { token: other.token });
        return r.body.status === 'FAILED' ? r.body : null;
      }, { timeoutMs: 60_000, intervalMs: 100, message: 'the run to fail' });
      expect(failed).to.include({ error: 'The price path has no ticks for this period', result: null });
      await waitUntil(() => updates.some((u) => u.status === 'FAILED' && u.error === 'The price path has no ticks for this period'), { message: 'BACKTEST_UPDATE FAILED' });
      expect((await h.request('GET', `/api/backtest/${res.body.id}/compare-paper`, { token: other.token })).status).to.equal(409);
      const slot = (await h.rt.infra.eventStore.readStream(`backtester-${other.userId}`)).map((e) => e.type);
      expect(slot.slice(-2)).to.deep.equal(['BacktestSlotTaken', 'BacktestSlotReleased']);
      const job = (await h.rt.infra.eventStore.readStream(`job-${res.body.jobId}`)).map((e) => e.type);
      expect(job).to.deep.equal(['JobRequested', 'JobClaimed', 'JobFailed']);
    } finally {
      unsubscribe();
      await failing.stop();
      await runner.start();
    }
  });

  it('an Idempotency-Key retry names the same backtest and appends nothing; the same key with another body is a 422', async function () {
    const third = await newUser(true);
    const headers = { 'idempotency-key': `bt-${unique()}` };
    const first = await h.request('POST', '/api/backtest/run', { token: third.token, body: RUN, headers });
    expect(first.status, JSON.stringify(first.body)).to.equal(202);
    const again = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/backtest/run', { token: third.token, body: RUN, headers });
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ id: first.body.id, jobId: first.body.jobId });
    });
    // The job runner may claim the job meanwhile: what the caller appended is what counts.
    const byCaller = (events: Array<{ metadata: Record<string, unknown> }>) => events.filter((e) => e.metadata.userId === third.userId);
    expect(byCaller(again)).to.deep.equal([]);
    const other422 = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/backtest/run', { token: third.token, body: { ...RUN, symbol: 'BTC' }, headers });
      expect(res.status).to.equal(422);
    });
    expect(byCaller(other422)).to.deep.equal([]);
    await waitUntil(async () => (await h.request('GET', `/api/backtest/${String(first.body.id)}`, { token: third.token })).body.status === 'COMPLETED', { timeoutMs: 120_000, intervalMs: 200, message: 'the run to complete' });
  });

  describe('bad input answers 4xx with a problem naming the field, and appends nothing', function () {
    const future = day(Date.now() + 10 * DAY);
    const runCases: Array<[string, unknown, RegExp]> = [
      ['no strategy', { ...RUN, strategyId: undefined }, new RegExp(STRATEGY_REQUIRED_MESSAGE)],
      ['an empty strategy', { ...RUN, strategyId: '' }, new RegExp(STRATEGY_REQUIRED_MESSAGE)],
      ['a strategy of the wrong type', { ...RUN, strategyId: 7 }, new RegExp(STRATEGY_REQUIRED_MESSAGE)],
      ['an unknown strategy', { ...RUN, strategyId: 'martingale' }, /unknown strategy "martingale"/],
      ['a NUL in the strategy', { ...RUN, strategyId: 'rsi-mean-reversion\u0000' }, /unknown strategy/],
      ['an unknown symbol', { ...RUN, symbol: 'DOGE' }, /symbol/],
      ['a symbol of the wrong type', { ...RUN, symbol: 1 }, /symbol/],
      ['no start date', { ...RUN, startDate: undefined }, /startDate/],
      ['a start date that is not a date', { ...RUN, startDate: '2025-13-45' }, /startDate/],
      ['a start before the history', { ...RUN, startDate: '2019-01-01' }, /startDate must not be before the history's start/],
      ['a future end', { ...RUN, endDate: future }, /endDate must not be in the future/],
      ['a future start', { ...RUN, startDate: future, endDate: day(Date.now() + 20 * DAY) }, /startDate must be in the past/],
      ['an end before the start', { ...RUN, startDate: END, endDate: START }, /endDate must be after startDate/],
      ['a period over the longest', { ...RUN, startDate: day(Date.now() - 500 * DAY), endDate: END }, /at most 366 days/],
      ['capital too small', { ...RUN, initialCapital: 5 }, /initialCapital must be from 100 to 10000000/],
      ['capital a string', { ...RUN, initialCapital: '10000' }, /initialCapital must be a number/],
      ['a parameter out of bounds', { ...RUN, parameters: { rsiPeriod: 500 } }, /parameters\.rsiPeriod must be from 2 to 50/],
      ['an unknown parameter', { ...RUN, parameters: { leverage: 10 } }, /unknown parameter "leverage"/],
      ['a parameter of the wrong type', { ...RUN, parameters: { rsiPeriod: 'fourteen' } }, /parameters/],
      ['parameters out of order', { ...RUN, strategyId: 'ma-crossover', parameters: { fastPeriod: 50, slowPeriod: 20 } }, /parameters\.fastPeriod must be less than parameters\.slowPeriod/],
      ['an unknown field', { ...RUN, leverage: 100 }, /leverage|Unrecognized/i],
      ['an array body', [RUN], /JSON object/],
    ];
    for (const [name, body, detail] of runCases) {
      it(`run, ${name}: 400`, async function () {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', '/api/backtest/run', { token: other.token, body });
          expect(res.status, JSON.stringify(res.body)).to.equal(400);
          expect(res.headers.get('content-type')).to.match(/application\/problem\+json/);
          expect(String(res.body.detail)).to.match(detail);
        });
        expect(events).to.deep.equal([]);
      });
    }

    const rawCases: Array<[string, string, string, RegExp, number]> = [
      ['malformed JSON', '/api/backtest/run', '{"strategyId": ', /JSON|Unexpected|invalid/i, 400],
      ['__proto__', '/api/backtest/run', `{"strategyId":"rsi-mean-reversion","startDate":"${START}","endDate":"${END}","__proto__":{"isAdmin":true}}`, /__proto__/, 400],
      ['__proto__ in parameters', '/api/backtest/run', `{"strategyId":"rsi-mean-reversion","startDate":"${START}","endDate":"${END}","parameters":{"__proto__":{"x":1}}}`, /__proto__/, 400],
      ['no body', '/api/backtest/run', '', /body is required/, 400],
      ['a huge body', '/api/backtest/run', JSON.stringify({ ...RUN, pad: 'x'.repeat(200_000) }), /100 kB/, 413],
      ['walk-forward malformed JSON', '/api/backtest/walk-forward', '[', /JSON|Unexpected|invalid/i, 400],
      ['walk-forward without strategy', '/api/backtest/walk-forward', JSON.stringify({ startDate: START, endDate: END }), new RegExp(STRATEGY_REQUIRED_MESSAGE), 400],
      ['walk-forward windows out of range', '/api/backtest/walk-forward', JSON.stringify({ strategyId: 'ma-crossover', startDate: START, endDate: END, windows: 100 }), /windows must be from 2 to 24/, 400],
      ['walk-forward too many windows for the period', '/api/backtest/walk-forward', JSON.stringify({ strategyId: 'ma-crossover', startDate: day(Date.now() - 18 * DAY), endDate: END, windows: 20 }), /too many windows/, 400],
      ['walk-forward parameterSets a fraction', '/api/backtest/walk-forward', JSON.stringify({ strategyId: 'ma-crossover', startDate: START, endDate: END, parameterSets: 2.5 }), /parameterSets must be a whole number/, 400],
      ['walk-forward unknown objective', '/api/backtest/walk-forward', JSON.stringify({ strategyId: 'ma-crossover', startDate: START, endDate: END, objective: 'luck' }), /objective must be one of/, 400],
      ['walk-forward future end', '/api/backtest/walk-forward', JSON.stringify({ strategyId: 'ma-crossover', startDate: START, endDate: future }), /endDate must not be in the future/, 400],
    ];
    for (const [name, path, raw, detail, status] of rawCases) {
      it(`${name}: ${status}`, async function () {
        const events = await h.appendedBy(async () => {
          const res = await h.request('POST', path, { token: other.token, raw, ...(raw === '' ? { headers: { 'content-type': 'application/json' } } : {}) });
          expect(res.status, JSON.stringify(res.body)).to.equal(status);
          expect(String(res.body.detail)).to.match(detail);
        });
        expect(events).to.deep.equal([]);
      });
    }

    it('a bad token: 401 on every endpoint but the public list; appends nothing', async function () {
      const events = await h.appendedBy(async () => {
        for (const [method, path] of [['POST', '/api/backtest/run'], ['POST', '/api/backtest/walk-forward'], ['GET', '/api/backtest/history'], ['GET', `/api/backtest/${randomUUID()}`], ['GET', `/api/backtest/${randomUUID()}/trades`], ['GET', `/api/backtest/${randomUUID()}/compare-paper`]] as const) {
          const res = await h.request(method, path, { token: 'not-a-token', ...(method === 'POST' ? { body: RUN } : {}) });
          expect(res.status, path).to.equal(401);
        }
        // The public list does not read the token (as every public route).
        expect((await h.request('GET', '/api/backtest/strategies', { token: 'not-a-token' })).status).to.equal(200);
      });
      expect(events).to.deep.equal([]);
    });

    it('bad queries on the reads: 400 naming the field', async function () {
      const [mine] = (await h.request('GET', '/api/backtest/history', { token: premium.token })).body;
      const cases: Array<[string, RegExp]> = [
        [`/api/backtest/${mine.id}/trades?page=0`, /page must be from 1/],
        [`/api/backtest/${mine.id}/trades?pageSize=501`, /pageSize must be from 1 to 500/],
        [`/api/backtest/${mine.id}/trades?page=abc`, /page must be a whole number/],
        [`/api/backtest/${mine.id}/trades?page=1&page=2`, /page/],
        [`/api/backtest/${mine.id}/trades?sort=price`, /sort/],
        [`/api/backtest/${mine.id}?x=1`, /x/],
        ['/api/backtest/history?limit=5', /limit/],
        ['/api/backtest/strategies?id=1', /id/],
        [`/api/backtest/${mine.id}/trades?page=1%00`, /page must be a whole number/],
        [`/api/backtest/${mine.id}/trades?pageSize=-5`, /pageSize must be a whole number/],
        [`/api/backtest/${mine.id}/trades?page=99999999999`, /page must be a whole number/],
      ];
      for (const [path, detail] of cases) {
        const res = await h.request('GET', path, { token: premium.token });
        expect(res.status, path).to.equal(400);
        expect(String(res.body.detail), path).to.match(detail);
      }
    });
  });
});
