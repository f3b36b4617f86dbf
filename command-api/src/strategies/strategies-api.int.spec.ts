/**
 * The strategies endpoints over HTTP on the embedded app (PGlite, the projector running): Premium
 * only; the three strategies at their defaults; toggle and configure append their events and read
 * back at once; a strategy's paper round trips (its signal stream's exits, while active) give the
 * card's figures and the performance series; bad input on every endpoint is a 4xx naming the
 * problem, appending nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { configIdOf, configKey, defaultConfiguration } from '@papertrade/domain/strategies/strategy-catalogue';
import { strategySignalDecider, strategySignalsStreamId, type EvaluateStrategy } from '@papertrade/domain/strategies/strategy-signals';
import { startHarness, type Harness } from '../../../test/api-harness';

const unique = () => randomUUID().slice(0, 8);

describe('strategies API (HTTP, embedded)', function () {
  this.timeout(120_000);
  let h: Harness;
  let premium: { userId: string; token: string };
  let free: { userId: string; token: string };

  async function account(isPremium: boolean) {
    const t = unique();
    const email = `strat.${t}@example.com`;
    const { userId } = await h.signup({ email, username: `strat_${t}` });
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
    premium = await account(true);
    free = await account(false);
  });
  after(async () => h?.stop());

  it('visitors get 401, a bad token 401, free users 403 on every endpoint, appending nothing', async function () {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/strategies'],
      ['GET', '/api/strategies/signals'],
      ['GET', '/api/strategies/rsi-technical/performance'],
      ['POST', '/api/strategies/rsi-technical/toggle', { active: true }],
      ['POST', '/api/strategies/rsi-technical/configure', { rsiPeriod: 10 }],
    ];
    const events = await h.appendedBy(async () => {
      for (const [method, path, body] of calls) {
        expect((await h.request(method, path, { body })).status, `${method} ${path} visitor`).to.equal(401);
        expect((await h.request(method, path, { body, token: 'not.a.token' })).status, `${method} ${path} bad token`).to.equal(401);
        const res = await h.request(method, path, { body, token: free.token });
        expect(res.status, `${method} ${path} free`).to.equal(403);
        expect(res.body.detail).to.match(/Premium subscription required/);
      }
    });
    expect(events).to.have.length(0);
  });

  it('a premium user has the three strategies at the spec defaults, inactive, figures null with "not enough trades"', async function () {
    const res = await h.request('GET', '/api/strategies', { token: premium.token });
    expect(res.status).to.equal(200);
    const byId = Object.fromEntries(res.body.strategies.map((s: { id: string }) => [s.id, s]));
    expect(Object.keys(byId)).to.deep.equal(['neural-network', 'rsi-technical', 'cross-exchange-arbitrage']);
    expect(byId['neural-network'].configuration).to.deep.equal({ learningRate: 0.001, epochs: 100, confidenceThreshold: 60 });
    expect(byId['rsi-technical'].configuration).to.deep.equal({ rsiPeriod: 14, rsiOverbought: 70, stopLoss: 2, takeProfit: 4 });
    expect(byId['cross-exchange-arbitrage'].configuration).to.deep.equal({ minSpread: 0.5, maxPositionSize: 1000 });
    for (const s of res.body.strategies) expect(s).to.include({ active: false, accuracy: null, winRate: null, figuresNote: 'not enough trades', sampleSize: 0 });
  });

  it('toggle appends StrategyActivated with the configuration in force and reads back at once; the same toggle again appends nothing', async function () {
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/strategies/rsi-technical/toggle', { token: premium.token, body: { active: true } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ strategyId: 'rsi-technical', active: true });
    });
    expect(events.map((e) => e.type)).to.deep.equal(['StrategyActivated']);
    expect(events[0]!.streamId).to.equal(`strategy-${premium.userId}-rsi-technical`);
    const list = await h.request('GET', '/api/strategies', { token: premium.token });
    expect(list.body.strategies.find((s: { id: string }) => s.id === 'rsi-technical')).to.include({ active: true });
    const again = await h.appendedBy(() => h.request('POST', '/api/strategies/rsi-technical/toggle', { token: premium.token, body: { active: true } }));
    expect(again).to.have.length(0);
  });

  it('configure records the configuration (missing fields take the defaults) and reads back at once', async function () {
    const events = await h.appendedBy(async () => {
      const res = await h.request('POST', '/api/strategies/cross-exchange-arbitrage/configure', { token: premium.token, body: { minSpread: 0.8 } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    });
    expect(events.map((e) => e.type)).to.deep.equal(['StrategyConfigured']);
    expect(events[0]!.data['configuration']).to.deep.equal({ minSpread: 0.8, maxPositionSize: 1000 });
    const list = await h.request('GET', '/api/strategies', { token: premium.token });
    expect(list.body.strategies.find((s: { id: string }) => s.id === 'cross-exchange-arbitrage').configuration).to.deep.equal({ minSpread: 0.8, maxPositionSize: 1000 });
  });

  it('bad input: 400 naming the field, 404 for an unknown strategy, 413 for a huge body; nothing appended', async function () {
    const cases: Array<{ path: string; body?: unknown; raw?: string; status: number; detail?: RegExp }> = [
      { path: '/api/strategies/rsi-technical/toggle', body: { active: 'yes' }, status: 400, detail: /active must be true or false/ },
      { path: '/api/strategies/rsi-technical/toggle', body: {}, status: 400, detail: /active/ },
      { path: '/api/strategies/rsi-technical/toggle', body: { active: true, extra: 1 }, status: 400, detail: /extra/ },
      { path: '/api/strategies/rsi-technical/configure', body: { rsiPeriod: 1 }, status: 400, detail: /rsiPeriod must be from 2 to 100/ },
      { path: '/api/strategies/rsi-technical/configure', body: { rsiPeriod: 14.5 }, status: 400, detail: /rsiPeriod must be a whole number/ },
      { path: '/api/strategies/rsi-technical/configure', body: { stopLoss: '2' }, status: 400, detail: /stopLoss must be a number/ },
      { path: '/api/strategies/rsi-technical/configure', body: { minSpread: 1 }, status: 400, detail: /minSpread/ },
      { path: '/api/strategies/neural-network/configure', body: { confidenceThreshold: 120 }, status: 400, detail: /confidenceThreshold must be from 50 to 99/ },
      { path: '/api/strategies/cross-exchange-arbitrage/configure', body: { maxPositionSize: -5 }, status: 400, detail: /maxPositionSize must be from 10/ },
      { path: '/api/strategies/rsi-technical/configure', raw: '{"__proto__": {"rsiPeriod": 3}}', status: 400 },
      { path: '/api/strategies/rsi-technical/configure', raw: '{"rsiPeriod": 14, "x\u0000": 1}', status: 400 },
      { path: '/api/strategies/rsi-technical/configure', raw: '{"rsiPeriod": ', status: 400 },
      { path: '/api/strategies/rsi-technical/configure', raw: JSON.stringify({ pad: 'x'.repeat(200_000) }), status: 413 },
      { path: '/api/strategies/rsi-technical/configure', body: [1, 2], status: 400 },
      { path: '/api/strategies/nope/toggle', body: { active: true }, status: 404, detail: /Strategy not found/ },
      { path: `/api/strategies/${free.userId}-rsi-technical/toggle`, body: { active: true }, status: 404 },
      { path: '/api/strategies/__proto__/configure', body: {}, status: 404 },
    ];
    const events = await h.appendedBy(async () => {
      for (const c of cases) {
        const res = await h.request('POST', c.path, { token: premium.token, ...(c.raw !== undefined ? { raw: c.raw } : { body: c.body }) });
        expect(res.status, `${c.path} ${c.raw ?? JSON.stringify(c.body)}: ${JSON.stringify(res.body)}`).to.equal(c.status);
        expect(res.headers.get('content-type')).to.match(/problem\+json/);
        if (c.detail) expect(res.body.detail).to.match(c.detail);
      }
    });
    expect(events).to.have.length(0);
    expect((await h.request('GET', '/api/strategies/nope/performance', { token: premium.token })).status).to.equal(404);
    expect((await h.request('GET', '/api/strategies?x=1', { token: premium.token })).status).to.equal(400);
    expect((await h.request('GET', '/api/strategies/signals?limit=5', { token: premium.token })).status).to.equal(400);
    expect((await h.request('GET', '/api/strategies/rsi-technical/performance?from=2024', { token: premium.token })).status).to.equal(400);
    expect((await h.request('GET', '/api/strategies/rsi%00technical/performance', { token: premium.token })).status).to.equal(404);
    expect((await h.request('POST', '/api/strategies/rsi%00technical/toggle', { token: premium.token, body: { active: true } })).status).to.equal(404);
    expect((await h.request('GET', `/api/strategies/${'x'.repeat(5000)}/performance`, { token: premium.token })).status).to.be.oneOf([404, 414, 431]);
  });

  it('the paper round trips of the active configuration give the performance series and, from 20 on, the card figures', async function () {
    const handler = new CommandHandler(h.rt.infra.eventStore, () => new Date());
    const config = defaultConfiguration('technical');
    const key = configKey('technical', config);
    const stream = strategySignalsStreamId(configIdOf(key), 'ETH');
    const base = Date.now() + 60_000; // after the activation above
    const evaluate = (i: number, rsi: number, previousRsi: number, close: number): EvaluateStrategy => {
      const candleTime = new Date(base + i * 300_000).toISOString();
      return { type: 'EvaluateStrategy', data: { signalId: `${configIdOf(key)}-${i}`, configId: configIdOf(key), configKey: key, symbol: 'ETH', candleTime, inputs: { strategyType: 'technical', configuration: config, rsi, previousRsi, close } } };
    };
    for (let t = 0; t < 22; t++) {
      await handler.handle(strategySignalDecider, stream, evaluate(2 * t, 25, 31, 1000), { actor: 'test', correlationId: 'c' });
      await handler.handle(strategySignalDecider, stream, evaluate(2 * t + 1, 72, 69, t % 2 ? 1010 : 995), { actor: 'test', correlationId: 'c' });
    }
    await h.projector.caughtUp();
    const perf = await h.request('GET', '/api/strategies/rsi-technical/performance', { token: premium.token });
    expect(perf.status).to.equal(200);
    expect(perf.body.summary.totalTrades).to.equal(22);
    expect(perf.body.performance).to.have.length(22);
    expect(perf.body.summary.winRate).to.equal(50);
    const card = (await h.request('GET', '/api/strategies', { token: premium.token })).body.strategies.find((s: { id: string }) => s.id === 'rsi-technical');
    expect(card).to.include({ figuresSource: 'paper', sampleSize: 22, figuresNote: null, winRate: 50, accuracy: 50 });
    expect(card.profitFactor).to.be.a('number');
    const live = await h.request('GET', '/api/strategies/signals', { token: premium.token });
    expect(live.body.signals[0]).to.include({ strategyId: 'rsi-technical', strategyName: 'RSI Mean Reversion', symbol: 'ETH', type: 'SELL' });
    expect(live.body.signals[0].description).to.match(/entered overbought/);
    // Another user (not following this configuration) sees none of it.
    const other = await account(true);
    const theirs = await h.request('GET', '/api/strategies', { token: other.token });
    expect(theirs.body.strategies.find((s: { id: string }) => s.id === 'rsi-technical')).to.include({ sampleSize: 0 });
    expect((await h.request('GET', '/api/strategies/signals', { token: other.token })).body.signals).to.have.length(0);
  });
});
