/**
 * AI strategies drive the bot (issue 19), on the embedded stores (PGlite) with the projector running:
 * - users with the same configuration share ONE evaluation per candle: five active strategies over
 *   three distinct configurations make three evaluations, and the default technical configuration's
 *   BUY is one event however many follow it; the same candle again appends nothing;
 * - a user with an active strategy trades its signals and no longer the house's; a user without one
 *   trades the house's as before and none of the strategy's; a follower without a running bot trades
 *   nothing; every strategy signal names its strategy's reasons;
 * - a neural strategy reads the house model until the user has one (its model is part of the shared
 *   key), and trades when the model's probability passes the threshold.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { subscriptionDecider, subscriptionStreamId } from '@papertrade/domain/auth/subscription';
import { coinById, coins, type Candle, type CoinId } from '@papertrade/domain/market/coins';
import { tickAt, tickTime } from '@papertrade/domain/market/market-path';
import { rsi } from '@papertrade/domain/market/indicators/rsi';
import { HOUSE_MODEL_USER_ID } from '@papertrade/domain/ml/model';
import { modelDecider } from '@papertrade/domain/ml/model.decider';
import type { SignalGeneratedV1 } from '@papertrade/domain/signals/signal';
import { strategyStreamId } from '@papertrade/domain/strategies/strategy';
import { strategyDecider } from '@papertrade/domain/strategies/strategy.decider';
import { defaultConfiguration, type StrategyId } from '@papertrade/domain/strategies/strategy-catalogue';
import type { StrategySignalGenerated } from '@papertrade/domain/strategies/strategy-signals';
import { botStreamId } from '@papertrade/domain/trading/bot';
import { botDecider } from '@papertrade/domain/trading/bot.decider';
import type { SimulatedTradePlaced } from '@papertrade/domain/trading/portfolio';
import { CommandHandler, type CommandMeta } from '@papertrade/platform/commands/command-handler';
import { silentLogger } from '@papertrade/platform/config/logger';
import type { OrderQuote } from '@papertrade/platform/market/market-data';
import { startHarness, type Harness } from '../../../test/api-harness';
import { syntheticCandles } from '../../../test/synthetic-candles';
import { TradingBot } from '../trading-bot';
import { StrategyEngine, storedModelScorer } from './strategy-engine';
import { distinctEvaluations, followersOf } from './strategy-followers';
import { FEATURE_COUNT, computeFeatures } from '@papertrade/domain/ml/features';
import { parametersOf } from '@papertrade/domain/ml/model-types';
import { syntheticCandleColumns } from '@papertrade/domain/ml/synthetic-candles.fixtures';
import { loadModel, trainModel } from '../ml/trainers';
import { ML_MODELS_COLLECTION } from '../ml/model-training-job';

const CANDLE_MS = 300_000;

/** 5-minute ETH candles ending at the last closed boundary, drifting down until RSI(14) first enters oversold on the last one. */
function oversoldCandles(): Candle[] {
  const end = Math.floor(Date.now() / CANDLE_MS) * CANDLE_MS - CANDLE_MS;
  const closes: number[] = [];
  let price = 3000;
  for (let i = 0; i < 400; i++) {
    price *= 1 + (i % 2 === 0 ? 0.004 : -0.0039) - (i > 300 ? 0.002 : 0);
    closes.push(price);
    if (i > 300) {
      const r = rsi(Float64Array.from(closes), 14);
      if (r[r.length - 1]! < 30 && r[r.length - 2]! >= 30) break;
    }
  }
  return closes.map((close, i) => ({ time: end - (closes.length - 1 - i) * CANDLE_MS, open: close, high: close * 1.001, low: close * 0.999, close, volume: 1_000_000 }));
}

describe('AI strategies drive the bot (PGlite)', function () {
  this.timeout(120_000);
  let harness: Harness;
  let handler: CommandHandler;
  const bots: TradingBot[] = [];
  const meta = (actor: string): CommandMeta => ({ actor, correlationId: randomUUID() });
  const now = () => new Date().toISOString();

  before(async function () {
    harness = await startHarness();
    handler = new CommandHandler(harness.rt.infra.eventStore, () => new Date());
  });
  after(async function () {
    for (const bot of bots.splice(0)) await bot.stop();
    await harness?.stop();
  });

  async function premiumWithBot(userId: string, bot = true) {
    await handler.handle(subscriptionDecider, subscriptionStreamId(userId), { type: 'ChangeSubscriptionByAdmin', data: { userId, tier: 'PREMIUM', adminId: 'admin' }, metadata: { now: now() } }, meta('admin'));
    if (bot) await handler.handle(botDecider, botStreamId(userId), { type: 'StartBot', data: { userId, premium: true }, metadata: { now: now() } }, meta(userId));
  }
  async function activate(userId: string, strategyId: StrategyId, configuration?: Record<string, number>) {
    if (configuration) await handler.handle(strategyDecider, strategyStreamId(userId, strategyId), { type: 'ConfigureStrategy', data: { userId, strategyId, configuration: configuration as never }, metadata: { now: now() } }, meta(userId));
    await handler.handle(strategyDecider, strategyStreamId(userId, strategyId), { type: 'ToggleStrategy', data: { userId, strategyId, active: true }, metadata: { now: now() } }, meta(userId));
  }
  async function deactivate(userId: string, strategyId: StrategyId) {
    await handler.handle(strategyDecider, strategyStreamId(userId, strategyId), { type: 'ToggleStrategy', data: { userId, strategyId, active: false }, metadata: { now: now() } }, meta(userId));
  }
  async function strategySignals(): Promise<StrategySignalGenerated['data'][]> {
    const all = await harness.eventsSince(undefined);
    return all.filter((e) => e.type === 'StrategySignalGenerated').map((e) => e.data as StrategySignalGenerated['data']);
  }
  async function tradesOf(userId: string): Promise<SimulatedTradePlaced['data'][]> {
    return (await harness.rt.infra.eventStore.readStream(`portfolio-${userId}`)).filter((e) => e.type === 'SimulatedTradePlaced').map((e) => e.data as SimulatedTradePlaced['data']);
  }
  function newBot() {
    const { eventStore, documents, leases, readModels } = harness.rt.infra;
    const quotes = (atMs: number): OrderQuote[] => coins.map((c) => ({ coinId: c.id, symbol: c.symbol, price: c.symbol === 'ETH' ? 3000 : 100, filledAt: new Date(tickTime(tickAt(atMs))).toISOString(), minuteVolumeUsd: 5_000_000 }));
    const bot = new TradingBot({
      eventStore, documents, leases, readModels, handler,
      marketData: { quotesAt: async (atMs: number) => quotes(atMs), candles: async (coinId: CoinId, days: number, endMs?: number) => syntheticCandles(coinId, days, endMs ?? Date.now(), {}) },
      clock: () => new Date(), logger: silentLogger, houseDemo: false,
    });
    bots.push(bot);
    return bot;
  }

  const eth = coinById('ethereum');
  const a = randomUUID();
  const b = randomUUID();
  const c = randomUUID();
  const tuned = randomUUID();
  const arb = randomUUID();
  const noStrategy = randomUUID();
  const noBot = randomUUID();

  it('users with the same configuration share one evaluation per candle and follow one signal', async function () {
    for (const u of [a, b, c, tuned, arb, noStrategy]) await premiumWithBot(u);
    await premiumWithBot(noBot, false);
    for (const u of [a, b, c, noBot]) await activate(u, 'rsi-technical');
    await activate(tuned, 'rsi-technical', { ...defaultConfiguration('technical'), rsiPeriod: 21 });
    await activate(arb, 'cross-exchange-arbitrage');
    await harness.projector.caughtUp();

    const engine = new StrategyEngine({ readModels: harness.rt.infra.readModels, handler, logger: silentLogger });
    const candles = oversoldCandles();
    await engine.evaluateCoin(eth, candles);
    // 6 active strategies, 3 distinct evaluations (technical default, technical rsiPeriod 21, arbitrage).
    expect(engine.status()).to.include({ evaluations: 3, strategiesServed: 6, failures: 0 });
    const signals = await strategySignals();
    const buys = signals.filter((s) => s.type === 'BUY' && s.strategyType === 'technical');
    expect(buys, 'one BUY for the default configuration, shared by its four users').to.have.length(1);
    expect(buys[0]!.reasons[0]).to.match(/^RSI\(14\) \d+\.\d entered oversold \(below 30\.0\)$/);
    expect(buys[0]!.candleTime).to.equal(new Date(candles.at(-1)!.time).toISOString());

    // The same candle evaluated again (a restart, a second engine): nothing more.
    const again = new StrategyEngine({ readModels: harness.rt.infra.readModels, handler, logger: silentLogger });
    await again.evaluateCoin(eth, candles);
    expect(await strategySignals()).to.have.length(signals.length);
  });

  it('followers with a running bot trade the strategy signal; others trade the house signals as before', async function () {
    const bot = newBot();
    await bot.start();
    await bot.follower.reached(await harness.head());
    const strategyBuy = (await strategySignals()).find((s) => s.type === 'BUY')!;
    for (const u of [a, b, c]) {
      const trades = await tradesOf(u);
      expect(trades, `follower ${u}`).to.have.length(1);
      expect(trades[0]).to.include({ side: 'BUY', symbol: 'ETH' });
      expect(trades[0]!.source).to.include({ kind: 'SIGNAL', signalId: strategyBuy.signalId });
    }
    for (const u of [tuned, arb, noStrategy, noBot]) expect(await tradesOf(u), `not a follower of that configuration: ${u}`).to.have.length(0);

    // A house BUY on BTC: only the user with no active strategy trades it.
    const signalId = randomUUID();
    const candleTime = new Date(Math.floor(Date.now() / CANDLE_MS) * CANDLE_MS - CANDLE_MS).toISOString();
    const data: SignalGeneratedV1['data'] = { signalId, symbol: 'BTC', type: 'BUY', confidence: 80, price: 100, candleTime, reasons: [] };
    await harness.rt.infra.eventStore.append('signals-BTC', [{ id: randomUUID(), type: 'SignalGenerated', data, metadata: { userId: 'signal-engine', correlationId: signalId, causationId: signalId, at: now(), schemaVersion: 1 } }], 'any');
    await bot.follower.reached(await harness.head());
    expect((await tradesOf(noStrategy)).map((t) => t.symbol)).to.deep.equal(['BTC']);
    for (const u of [a, tuned, arb]) expect((await tradesOf(u)).filter((t) => t.symbol === 'BTC'), `strategy user ${u} ignores the house signal`).to.have.length(0);

    // Once the strategy is off, the house signals reach that user again.
    await deactivate(a, 'rsi-technical');
    await harness.projector.caughtUp();
    const second = randomUUID();
    await harness.rt.infra.eventStore.append('signals-BNB', [{ id: randomUUID(), type: 'SignalGenerated', data: { ...data, signalId: second, symbol: 'BNB' }, metadata: { userId: 'signal-engine', correlationId: second, causationId: second, at: now(), schemaVersion: 1 } }], 'any');
    await bot.follower.reached(await harness.head());
    expect((await tradesOf(a)).map((t) => t.symbol)).to.deep.equal(['ETH', 'BNB']);
    expect(bot.status().strategySignals).to.be.greaterThan(0);
  });

  it('the neural strategy reads the house model until the user trains one, and buys when P(up) passes the threshold', async function () {
    const user = randomUUID();
    await premiumWithBot(user);
    await activate(user, 'neural-network', { ...defaultConfiguration('neural'), confidenceThreshold: 55 });
    // A house model recorded as trained (its figures are not what this test is about).
    const model = (digest: string) => ({
      modelType: 'logistic_regression' as const, trainingDays: 30, parameters: { l2: 1 } as never, jobId: randomUUID(), symbol: 'ETH', candleMinutes: 5, asOf: now(),
      trainSamples: 1000, testSamples: 400, correct: 200, majority: 200, accuracy: 50, baseline: 50, low: 45, high: 55, verdict: 'no edge' as const, trainingTimeMs: 10, digest, trainedAt: now(),
    });
    await handler.handle(modelDecider, `model-${HOUSE_MODEL_USER_ID}`, { type: 'RecordModelTrained', data: { userId: HOUSE_MODEL_USER_ID, model: model('f'.repeat(64)) }, metadata: { now: now() } }, meta('model-trainer'));
    await harness.projector.caughtUp();
    const scored: string[] = [];
    const engine = new StrategyEngine({
      readModels: harness.rt.infra.readModels, handler, logger: silentLogger,
      scorer: async (digest) => {
        scored.push(digest);
        return 0.58;
      },
    });
    await engine.evaluateCoin(eth, oversoldCandles().slice(0, -1));
    expect(scored).to.deep.equal(['f'.repeat(64)]);
    const buy = (await strategySignals()).find((s) => s.strategyType === 'neural')!;
    expect(buy).to.include({ type: 'BUY', confidence: 58 });
    expect(buy.reasons[0]).to.equal('House model ffffffff gives an up candle 58.0% (threshold 55.0%)');
    expect(buy.configKey).to.match(/\|model=f{64}$/);
    // Not ETH: the models learned ETH, nothing is scored for another coin.
    await engine.evaluateCoin(coinById('bitcoin'), oversoldCandles());
    expect(scored).to.have.length(1);
  });

  it('the stored-model scorer: a trained model read back by digest scores the newest candle as the training standardised it; the user\'s own model then replaces the house one in the key', async function () {
    const columns = syntheticCandleColumns({ candles: 3000, seed: 5, rho: -0.3 });
    const run = await trainModel(columns, 'logistic_regression', parametersOf('logistic_regression', {}));
    const documents = harness.rt.infra.documents;
    await documents.collection(ML_MODELS_COLLECTION).put(run.digest, { digest: run.digest, modelType: 'logistic_regression', bytes: run.bytes.length, content: run.bytes.toString('utf8'), storedAt: now() });
    const candles: Candle[] = Array.from({ length: 300 }, (_, i) => ({ time: Number(columns.time[i]), open: columns.open[i]!, high: Number(columns.high[i]), low: Number(columns.low[i]), close: Number(columns.close[i]), volume: Number(columns.volume[i]) }));
    const p = await storedModelScorer(documents)(run.digest, candles);
    // The same number by hand: the features of the last candle, standardised with the stored means and deviations, through the loaded model.
    const { stored, predict } = await loadModel(run.bytes);
    const features = computeFeatures({ time: candles.map((c) => c.time), high: candles.map((c) => c.high), low: candles.map((c) => c.low), close: candles.map((c) => c.close), volume: candles.map((c) => c.volume) });
    const row = (features.rows - 1) * FEATURE_COUNT;
    const x = Float32Array.from({ length: FEATURE_COUNT }, (_, f) => (features.values[row + f]! - stored.standardisation.mean[f]!) / stored.standardisation.std[f]!);
    expect(p).to.be.within(0, 1);
    expect(p).to.equal((await predict(x, 1))[0]);
    await storedModelScorer(documents)('0'.repeat(64), candles).then(
      () => expect.fail('an unknown model must not score'),
      (error: Error) => expect(error.message).to.match(/is not stored/),
    );

    // A user with a model of their own: their neural strategy's key names it, no longer the house's.
    const user = randomUUID();
    await premiumWithBot(user);
    await activate(user, 'neural-network');
    await handler.handle(modelDecider, `model-${user}`, { type: 'RecordModelTrained', data: { userId: user, model: { modelType: 'logistic_regression', trainingDays: 30, parameters: { l2: 1 } as never, jobId: randomUUID(), symbol: 'ETH', candleMinutes: 5, asOf: now(), trainSamples: 1, testSamples: 1, correct: 1, majority: 1, accuracy: 50, baseline: 50, low: 40, high: 60, verdict: 'no edge', trainingTimeMs: 1, digest: run.digest, trainedAt: now() } }, metadata: { now: now() } }, meta('model-trainer'));
    await harness.projector.caughtUp();
    const keys = (await distinctEvaluations(harness.rt.infra.readModels)).map((e) => e.evaluation.key).filter((k) => k.includes('|model='));
    expect(keys.some((k) => k.endsWith(`|model=${run.digest}`)), 'the user\'s own model').to.equal(true);
    expect(keys.some((k) => k.endsWith(`|model=${'f'.repeat(64)}`)), 'the house model, for the user without one').to.equal(true);
    expect(await followersOf(harness.rt.infra.readModels, keys.find((k) => k.endsWith(run.digest))!)).to.deep.equal([user]);
  });
});
