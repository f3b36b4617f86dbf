/**
 * A strategy's Backtest (issue 19): the strategy's own rule, decided by the code its live signals come
 * from (strategy-signals.ts: strategySignalDecider, folded over the period's candles as the workers'
 * strategy engine issues it candle by candle), through the backtesting engine's job and conventions
 * (issue 18, domain/src/backtest). The request names the strategy (its id is the config's strategyId)
 * and carries its configuration as the parameters.
 *
 * - technical: the strategy's signals (flat: RSI entering oversold buys; long: its stop loss and take
 *   profit, percent from its entry close and checked at candle closes, or RSI entering overbought,
 *   sell) are what the bot follows when the strategy drives it, so the backtest hands those very
 *   signals to the paper engine, which fills them as the bot does, under the user's risk profile (the
 *   bot attaches the profile's stops to every BUY it places, live and here alike).
 * - neural: walk-forward over the models that existed: each candle is decided by the model the live
 *   strategy would have read at its close, the user's latest model trained at or before it, else the
 *   house model's latest (the live rule, strategy-followers.ts), never one trained later (it would have
 *   seen the future). A model's data ends before it was trained, so no candle is decided by a model that
 *   learnt from it or anything after. Candles before any model are not traded, and the result says how
 *   many. The stored models are scored through a port (the workers load them); this stays pure. Each
 *   model is its own signal stream live (the key holds its digest), so each starts flat here too.
 * - arbitrage: the simulated per-exchange quotes at each close (exchange-quotes.ts, as live); each
 *   ARBITRAGE signal is a round trip of maxPositionSize USD (what the buy leg costs, its fee included):
 *   bought on the cheaper exchange, sold on the dearer one at the same close, each leg paying its
 *   exchange's fee, so its P&L is maxPositionSize × the net spread, the signal's own figure. The paper
 *   portfolio holds one price per coin and cannot hold two venues, so these legs are not paper-engine
 *   fills: cash only, no half spread or impact beyond the quotes. A round trip the cash cannot pay for
 *   is refused (refusedSignals).
 *
 * The figures follow contracts.ts' conventions (metrics.ts: the same equity series, figures and curves).
 */
import { backtestConfigKey, BACKTEST_CANDLE_MINUTES, validatePeriod, type BacktestResult, type BacktestRun, type BacktestTrade } from '../backtest/contracts';
import type { BacktestConfig } from '../backtest/backtest';
import { indexAtOrAfter, type Candles } from '../backtest/candles';
import { curvesOf, EquitySeries, figuresOf } from '../backtest/metrics';
import { candlesWithWarmUp, runDecidedBacktest, type BacktestMarket, type BacktestOptions } from '../backtest/run-backtest';
import { BUY, NO_SIGNAL, SELL, warmUpCandles } from '../backtest/strategies';
import { exchangeFeeRate } from '../exchanges/exchanges';
import { FEATURE_COUNT, computeFeatures } from '../ml/features';
import { rsi } from '../market/indicators/rsi';
import { BASIS_WINDOW, exchangeQuotes } from './exchange-quotes';
import type { StrategyBacktestRequest } from './contracts';
import { MODEL_KEY_SEPARATOR } from './strategy-view';
import { configIdOf, configKey, strategyIds, strategyInfo, type ArbitrageConfiguration, type NeuralConfiguration, type StrategyConfiguration, type StrategyId, type StrategyType, type TechnicalConfiguration } from './strategy-catalogue';
import { evolveStrategySignal, initialStrategySignalState, strategySignalDecider, type StrategyInputs, type StrategyRoundTrip, type StrategySignalGenerated, type StrategySignalState } from './strategy-signals';

export const STRATEGY_BACKTEST_SYMBOL = 'ETH';
const CANDLE_MS = BACKTEST_CANDLE_MINUTES * 60_000;

/** A backtest request of an AI strategy: the config names it and holds its configuration. */
export type StrategyBacktestConfig = Omit<BacktestConfig, 'strategyId'> & { strategyId: StrategyId };

/** Whether a backtest's strategy is an AI strategy's id (else the backtesting catalogue's). */
export function isStrategyBacktestId<T extends string>(id: T | StrategyId): id is StrategyId {
  return (strategyIds as readonly string[]).includes(id);
}

export function isStrategyBacktestConfig(config: Pick<BacktestConfig, 'strategyId'>): config is StrategyBacktestConfig {
  return isStrategyBacktestId(config.strategyId);
}

/**
 * The backtest request of a strategy and its configuration (the period checked against the history and
 * the clock as every backtest's: contracts.ts validatePeriod, a 400 naming the field), with its
 * settings' key (equal settings, equal key).
 */
export function strategyBacktestConfig(strategyId: StrategyId, configuration: StrategyConfiguration, request: StrategyBacktestRequest, nowMs: number): { config: StrategyBacktestConfig; configKey: string } {
  const { startMs, endMs } = validatePeriod(request.startDate, request.endDate, nowMs);
  const parameters: Record<string, number> = { ...(configuration as unknown as Record<string, number>) };
  const config: StrategyBacktestConfig = {
    strategyId,
    symbol: STRATEGY_BACKTEST_SYMBOL,
    startDate: new Date(startMs).toISOString(),
    endDate: new Date(endMs).toISOString(),
    initialCapital: request.initialCapital,
    parameters,
  };
  return { config, configKey: backtestConfigKey({ strategyId, symbol: STRATEGY_BACKTEST_SYMBOL, startMs, endMs, initialCapital: request.initialCapital, parameters }) };
}

// ---------------------------------------------------------------------------------------------
// The signals: the live decider folded over the candles

/** Candles before the period each type reads (so its first decision has what live had). */
export function strategyWarmUpCandles(type: StrategyType, parameters: Readonly<Record<string, number>>): number {
  switch (type) {
    case 'technical':
      // Wilder's recursion, seeded this far back, is the live one to float precision (strategies.ts).
      return warmUpCandles('rsi-mean-reversion', { rsiPeriod: parameters['rsiPeriod'] ?? 14 });
    case 'neural':
      // The features' MACD (26, 9) and EMAs, likewise.
      return warmUpCandles('macd-momentum', { slowPeriod: 26, signalPeriod: 9 });
    case 'arbitrage':
      return BASIS_WINDOW + 1;
  }
}

/**
 * The strategy's signals over candles [first, n): at each candle `inputsAt(i)` (null: nothing to
 * evaluate, as live without a model) is evaluated by strategySignalDecider on the state of `streamOf(i)`
 * (one stream per configuration and, for neural, model: live each is its own signal stream), exactly as
 * the workers' strategy engine issues EvaluateStrategy at each close.
 */
export function strategySignalsOver(
  strategyId: string,
  candles: Pick<Candles, 'time' | 'length'>,
  first: number,
  end: number,
  inputsAt: (i: number) => StrategyInputs | null,
  streamOf: (i: number) => string = () => strategyId,
  signalIds?: StrategySignalIds,
): Array<{ index: number; signal: StrategySignalGenerated }> {
  const states = new Map<string, StrategySignalState>();
  const out: Array<{ index: number; signal: StrategySignalGenerated }> = [];
  for (let i = first; i < end; i++) {
    const inputs = inputsAt(i);
    if (!inputs) continue;
    const stream = streamOf(i);
    const state = states.get(stream) ?? initialStrategySignalState();
    const candleTime = new Date(candles.time[i]!).toISOString();
    const configId = configIdOf(stream);
    const signalId = signalIds ? signalIds(configId, STRATEGY_BACKTEST_SYMBOL, candleTime).signalId : `${strategyId}:${STRATEGY_BACKTEST_SYMBOL}@${candleTime}`;
    const events = strategySignalDecider.decide({ type: 'EvaluateStrategy', data: { signalId, configId, configKey: stream, symbol: STRATEGY_BACKTEST_SYMBOL, candleTime, inputs } }, state);
    let next = state;
    for (const e of events) {
      next = evolveStrategySignal(next, e);
      out.push({ index: i, signal: e });
    }
    states.set(stream, next);
  }
  return out;
}

/**
 * The ids the live strategy engine gives a signal of a configuration (its configId: configIdOf of the
 * evaluation's key) and the StrategySignalGenerated that carries it (the command handler's idempotent
 * ids: platform code, so the workers pass them in). With them a backtest's trades carry the bot's very
 * trade ids (tradeIdFor of the signal and the user), which the backtest-versus-paper report lines up by.
 */
export type StrategySignalIds = (configId: string, symbol: string, candleTime: string) => { signalId: string; eventId: string };

/** The technical strategy's inputs at candle i: RSI over the closes (rsi.ts, as the live engine computes it). */
export function technicalInputs(configuration: TechnicalConfiguration, close: Float64Array): (i: number) => StrategyInputs | null {
  const series = close.length > configuration.rsiPeriod + 1 ? rsi(close, configuration.rsiPeriod) : new Float64Array(close.length).fill(Number.NaN);
  return (i) => (i < 1 ? null : { strategyType: 'technical', configuration, rsi: series[i]!, previousRsi: series[i - 1]!, close: close[i]! });
}

/** The arbitrage strategy's inputs at candle i: the exchanges' quotes at that close (exchange-quotes.ts, as live). */
export function arbitrageInputs(configuration: ArbitrageConfiguration, close: Float64Array): (i: number) => StrategyInputs | null {
  return (i) => (i < 1 ? null : { strategyType: 'arbitrage', configuration, quotes: exchangeQuotes(close.subarray(0, i + 1)), close: close[i]! });
}

// ---------------------------------------------------------------------------------------------
// Neural: the models as they were

/** A model the neural strategy could read: the user's own or the house's, with when it was trained. */
export interface StrategyModel {
  digest: string;
  owner: 'own' | 'house';
  modelType: string;
  /** When it was trained (ISO): from then on the live strategy could read it. */
  trainedAt: string;
  /** The end of its training data (ISO), at or before trainedAt. */
  asOf: string;
}

/** What the neural backtest needs of the stored models (the workers load them: workers/src/strategies/strategy-models.ts). */
export interface StrategyModelPort {
  /** The user's models and the house's, in any order. */
  models(userId: string): Promise<readonly StrategyModel[]>;
  /** P(up candle) of each row of raw features (rows × FEATURE_COUNT, ml/features.ts), by the model of `digest` (it standardises as it was trained). */
  score(digest: string, features: Float64Array, rows: number): Promise<Float64Array>;
}

/**
 * The model that decides the candle closing at `closeMs`: the user's latest trained at or before it,
 * else the house's latest (the live rule), never one trained after it nor one whose data ends after it.
 */
export function modelAt(models: readonly StrategyModel[], closeMs: number): StrategyModel | null {
  let own: StrategyModel | null = null;
  let house: StrategyModel | null = null;
  for (const m of models) {
    if (Date.parse(m.trainedAt) > closeMs || Date.parse(m.asOf) > closeMs) continue;
    if (m.owner === 'own') {
      if (!own || m.trainedAt > own.trainedAt) own = m;
    } else if (!house || m.trainedAt > house.trainedAt) house = m;
  }
  return own ?? house;
}

const modelName = (m: StrategyModel) => `${m.owner === 'own' ? 'Your' : 'House'} model ${m.digest.slice(0, 8)}`;

/**
 * The probability of an up candle at each candle of [first, end) by the model of that candle
 * (modelAt), NaN where there is none; the features are computed once (they read a candle and the ones
 * before it only), each model scores its candles in one batch.
 */
export async function neuralProbabilities(candles: Candles, first: number, end: number, models: readonly StrategyModel[], score: StrategyModelPort['score']): Promise<{ probability: Float64Array; modelOf: Array<StrategyModel | null> }> {
  const probability = new Float64Array(candles.length).fill(Number.NaN);
  const modelOf: Array<StrategyModel | null> = new Array<StrategyModel | null>(candles.length).fill(null);
  const features = computeFeatures(candles);
  const rowOf = (i: number) => (features.rows > 0 && i >= features.index[0]! ? i - features.index[0]! : -1);
  const byDigest = new Map<string, number[]>();
  for (let i = first; i < end; i++) {
    const model = modelAt(models, candles.time[i]! + CANDLE_MS);
    modelOf[i] = model;
    if (!model || rowOf(i) < 0) continue;
    const list = byDigest.get(model.digest) ?? [];
    list.push(i);
    byDigest.set(model.digest, list);
  }
  for (const [digest, indexes] of byDigest) {
    const x = new Float64Array(indexes.length * FEATURE_COUNT);
    indexes.forEach((i, k) => x.set(features.values.subarray(rowOf(i) * FEATURE_COUNT, (rowOf(i) + 1) * FEATURE_COUNT), k * FEATURE_COUNT));
    const p = await score(digest, x, indexes.length);
    indexes.forEach((i, k) => (probability[i] = p[k]!));
  }
  return { probability, modelOf };
}

/** The neural strategy's inputs at candle i (null: no model then). */
export function neuralInputs(configuration: NeuralConfiguration, close: Float64Array, probability: Float64Array, modelOf: ReadonlyArray<StrategyModel | null>): (i: number) => StrategyInputs | null {
  return (i) => {
    const model = modelOf[i];
    return model ? { strategyType: 'neural', configuration, probabilityUp: probability[i]!, close: close[i]!, model: modelName(model) } : null;
  };
}

/**
 * The neural strategy's plan over candles: each candle's model (an index into `models`, -1: none then)
 * and its probability of an up candle. Made where the models are (it awaits their predictions), and
 * plain data, so the rest of the run can go on elsewhere (the workers' backtest thread).
 */
export interface NeuralPlan {
  models: StrategyModel[];
  modelIndex: Int32Array;
  probability: Float64Array;
}

export async function neuralPlan(candles: Candles, first: number, end: number, models: readonly StrategyModel[], score: StrategyModelPort['score']): Promise<NeuralPlan> {
  const { probability, modelOf } = await neuralProbabilities(candles, first, end, models, score);
  const list = [...models];
  return { models: list, modelIndex: Int32Array.from(modelOf, (m) => (m ? list.indexOf(m) : -1)), probability };
}

/** The neural strategy's signals over [first, end) by its plan: each candle by its model, each model its own stream (as live: its digest is in the stream's key). */
export function neuralSignals(strategyId: string, configuration: NeuralConfiguration, candles: Candles, first: number, end: number, plan: NeuralPlan, signalIds?: StrategySignalIds) {
  const modelOf = Array.from(plan.modelIndex, (k) => (k >= 0 ? plan.models[k]! : null));
  const close = candles.close.subarray(0, candles.length);
  const key = configKey('neural', configuration);
  const signals = strategySignalsOver(strategyId, candles, first, end, neuralInputs(configuration, close, plan.probability, modelOf), (i) => `${key}${MODEL_KEY_SEPARATOR}${modelOf[i]?.digest ?? 'none'}`, signalIds);
  return { signals, modelOf };
}

// ---------------------------------------------------------------------------------------------
// The run

export interface StrategyBacktestOptions extends Pick<BacktestOptions, 'rules' | 'userId' | 'onProgress' | 'peaks'> {
  /** The stored models (neural only). */
  models?: StrategyModelPort;
  /** The live engine's signal and event ids (default: `{strategyId}:{SYMBOL}@{candleTime}`). */
  signalIds?: StrategySignalIds;
}

const pct = (x: number) => `${Number(x.toFixed(4))}%`;

/** What a run needs that only an async step can give (the neural strategy's plan); plain data. */
export interface StrategyBacktestPlan {
  neural?: NeuralPlan;
}

function periodCandles(config: StrategyBacktestConfig, ticks: BacktestMarket['ticks']) {
  const { type } = strategyInfo(config.strategyId);
  const startMs = Date.parse(config.startDate);
  const endMs = Date.parse(config.endDate);
  const candles = candlesWithWarmUp({ symbol: config.symbol, startMs, endMs }, ticks, strategyWarmUpCandles(type, config.parameters));
  // loadCandles stops at the last candle that closes by the period's end: every candle from `first` on is in the period.
  return { type, candles, first: indexAtOrAfter(candles, startMs), end: candles.length };
}

/** The async step (neural: the user's models and their predictions, through the port); nothing for the others. */
export async function planStrategyBacktest(config: StrategyBacktestConfig, ticks: BacktestMarket['ticks'], options: Pick<StrategyBacktestOptions, 'models' | 'userId'>): Promise<StrategyBacktestPlan> {
  if (strategyInfo(config.strategyId).type !== 'neural') return {};
  if (!options.models) throw new Error('The neural strategy’s backtest needs the stored models, and this engine has none');
  const { candles, first, end } = periodCandles(config, ticks);
  const models = await options.models.models(options.userId ?? 'backtest');
  return { neural: await neuralPlan(candles, first, end, models, options.models.score.bind(options.models)) };
}

/** The strategy's backtest over the period: its signals, the fills and the figures. */
export async function runStrategyBacktest(config: StrategyBacktestConfig, market: BacktestMarket, options: StrategyBacktestOptions): Promise<StrategyBacktestRun> {
  return runPlannedStrategyBacktest(config, market, options, await planStrategyBacktest(config, market.ticks, options));
}

export type StrategyBacktestRun = BacktestRun & { signals: StrategySignalGenerated[] };

/** runStrategyBacktest once planned: synchronous and pure (the workers run it on their backtest thread). */
export function runPlannedStrategyBacktest(config: StrategyBacktestConfig, market: BacktestMarket, options: Omit<StrategyBacktestOptions, 'models'>, plan: StrategyBacktestPlan): StrategyBacktestRun {
  const { type, candles, first, end } = periodCandles(config, market.ticks);
  const close = candles.close.subarray(0, candles.length);
  const p = config.parameters as Record<string, number>;
  switch (type) {
    case 'technical': {
      const configuration: TechnicalConfiguration = { rsiPeriod: p['rsiPeriod']!, rsiOverbought: p['rsiOverbought']!, stopLoss: p['stopLoss']!, takeProfit: p['takeProfit']! };
      const signals = strategySignalsOver(config.strategyId, candles, first, end, technicalInputs(configuration, close), () => configKey('technical', configuration), options.signalIds);
      const notes = [
        `The strategy's own signals, as live: BUY when RSI(${configuration.rsiPeriod}) enters oversold (below ${100 - configuration.rsiOverbought}); SELL when it enters overbought (above ${configuration.rsiOverbought}), at the stop loss (${pct(configuration.stopLoss)} below the entry close) or at the take profit (${pct(configuration.takeProfit)} above it), checked at candle closes.`,
        'The orders fill through the paper engine as the bot fills the strategy’s signals, under your risk profile (its sizing, entry rules and the stops it attaches to each BUY).',
      ];
      const run = engineRun(config, market, options, candles, signals);
      return { result: { ...run.result, notes }, trades: run.trades, signals: signals.map((s) => s.signal) };
    }
    case 'neural': {
      const configuration: NeuralConfiguration = { learningRate: p['learningRate']!, epochs: p['epochs']!, confidenceThreshold: p['confidenceThreshold']! };
      if (!plan.neural || plan.neural.modelIndex.length !== candles.length) throw new Error('The neural strategy’s backtest needs its plan over these candles (planStrategyBacktest)');
      const { signals, modelOf } = neuralSignals(config.strategyId, configuration, candles, first, end, plan.neural, options.signalIds);
      const run = engineRun(config, market, options, candles, signals);
      return { result: { ...run.result, notes: neuralNotes(first, end, modelOf, configuration) }, trades: run.trades, signals: signals.map((s) => s.signal) };
    }
    case 'arbitrage': {
      const configuration: ArbitrageConfiguration = { minSpread: p['minSpread']!, maxPositionSize: p['maxPositionSize']! };
      const signals = strategySignalsOver(config.strategyId, candles, first, end, arbitrageInputs(configuration, close), () => configKey('arbitrage', configuration), options.signalIds);
      return { ...arbitrageBacktest(config, candles, first, end, signals, options), signals: signals.map((s) => s.signal) };
    }
  }
}

/** The signals through the paper engine (technical, neural): BUY and SELL at their candles, each with its confidence. */
function engineRun(config: StrategyBacktestConfig, market: BacktestMarket, options: Omit<StrategyBacktestOptions, 'models'>, candles: Candles, signals: ReadonlyArray<{ index: number; signal: StrategySignalGenerated }>): BacktestRun {
  const decisions = new Int8Array(candles.length).fill(NO_SIGNAL);
  const confidence = new Float64Array(candles.length).fill(100);
  for (const { index, signal } of signals) {
    if (signal.data.type === 'ARBITRAGE') continue;
    decisions[index] = signal.data.type === 'BUY' ? BUY : SELL;
    confidence[index] = signal.data.confidence;
  }
  // The engine names each signal (and its event) as the strategy's signal was named.
  const byTime = new Map(signals.map(({ signal }) => [signal.data.candleTime, signal.data]));
  const ids = options.signalIds;
  const named: BacktestMarket = {
    ...market,
    signalIdOf: (symbol, candleTime) => byTime.get(candleTime)?.signalId ?? `${config.strategyId}:${symbol}@${candleTime}`,
    signalEventIdOf: (symbol, candleTime) => {
      const signal = byTime.get(candleTime);
      return ids && signal ? ids(signal.configId, symbol, candleTime).eventId : (signal?.signalId ?? `${config.strategyId}:${symbol}@${candleTime}`);
    },
  };
  const { result, trades } = runDecidedBacktest(
    { symbol: config.symbol, startMs: Date.parse(config.startDate), endMs: Date.parse(config.endDate), initialCapital: config.initialCapital, label: config.strategyId },
    named,
    { rules: options.rules, candles, decisions, confidence, ...(options.userId ? { userId: options.userId } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}), ...(options.peaks ? { peaks: options.peaks } : {}) },
  );
  return { result, trades };
}

function neuralNotes(first: number, end: number, modelOf: ReadonlyArray<StrategyModel | null>, c: NeuralConfiguration): string[] {
  const used = new Map<string, { model: StrategyModel; candles: number }>();
  let without = 0;
  for (let i = first; i < end; i++) {
    const m = modelOf[i];
    if (!m) without++;
    else used.set(m.digest, { model: m, candles: (used.get(m.digest)?.candles ?? 0) + 1 });
  }
  const notes = [
    `Walk-forward over the models as they were: each candle is decided by the model the live strategy read at its close (your latest model trained by then, else the house model's), never by one trained later; BUY at P(up) ≥ ${c.confidenceThreshold}%, SELL at P(down) ≥ ${c.confidenceThreshold}%, filled through the paper engine under your risk profile.`,
  ];
  for (const { model, candles: n } of used.values()) notes.push(`${modelName(model)} (${model.modelType}, trained ${model.trainedAt.slice(0, 16).replace('T', ' ')} UTC on data to ${model.asOf.slice(0, 16).replace('T', ' ')}) decided ${n} candles.`);
  if (without > 0) {
    const total = end - first;
    notes.push(without === total
      ? `No model had been trained by the period's end, so nothing was traded: a model trained later would have seen these candles. Backtest a period after your model's training to see it trade.`
      : `${without} of ${total} candles came before any model was trained and were not traded.`);
  }
  return notes;
}

const usd6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The arbitrage round trips of `signals` (candle indexes in [first, end), in order): cash only, both legs at the signal's quotes, each with its exchange's fee. */
export function arbitrageBacktest(config: StrategyBacktestConfig, candles: Candles, first: number, end: number, signals: ReadonlyArray<{ index: number; signal: StrategySignalGenerated }>, options: Pick<StrategyBacktestOptions, 'onProgress'>): BacktestRun {
  const endMs = Date.parse(config.endDate);
  const equity = new EquitySeries();
  const trades: BacktestTrade[] = [];
  const closedPnl: number[] = [];
  let cash = config.initialCapital;
  let refused = 0;
  let next = 0;
  const span = Math.max(1, end - first);
  for (let i = first; i < end; i++) {
    const closeMs = candles.time[i]! + CANDLE_MS;
    for (; next < signals.length && signals[next]!.index === i; next++) {
      const { signal } = signals[next]!;
      const a = signal.data.arbitrage;
      if (!a) continue;
      if (cash < a.sizeUsd) {
        refused++;
        continue;
      }
      const buyFee = exchangeFeeRate(a.buyExchange);
      const sellFee = exchangeFeeRate(a.sellExchange);
      // sizeUsd is what the buy leg costs, its fee included: the signal's profitUsd = sizeUsd × netSpread.
      const amount = a.sizeUsd / (a.buyPrice * (1 + buyFee));
      const pnl = amount * a.sellPrice * (1 - sellFee) - a.sizeUsd;
      cash += pnl;
      closedPnl.push(pnl);
      const time = new Date(closeMs).toISOString();
      const leg = (side: 'BUY' | 'SELL', exchange: string, price: number, fee: number, legPnl: number | null): BacktestTrade => ({
        tradeId: `${signal.data.signalId}:${side.toLowerCase()}`,
        time,
        side,
        symbol: STRATEGY_BACKTEST_SYMBOL,
        amount,
        price,
        fee: usd6(amount * price * fee),
        pnl: legPnl,
        reason: 'SIGNAL',
        signalId: signal.data.signalId,
        rule: `${side === 'BUY' ? 'Bought' : 'Sold'} on ${exchange} (fee ${pct(fee * 100)}): ${signal.data.reasons[0] ?? ''}`,
        exchange,
        execution: { mid: candles.close[i]!, halfSpread: 0, impact: 0, filledAt: time, intendedAt: null, delayMs: null, level: null },
      });
      trades.push(leg('BUY', a.buyExchange, a.buyPrice, buyFee, null), leg('SELL', a.sellExchange, a.sellPrice, sellFee, usd6(pnl)));
    }
    equity.push(closeMs, cash);
    if (options.onProgress && (i - first) % 4096 === 0) options.onProgress((i - first) / span);
  }
  equity.push(endMs, cash);
  const figures = figuresOf(equity, closedPnl, config.initialCapital, cash);
  const signalsGiven = signals.filter((s) => s.signal.data.type === 'ARBITRAGE').length;
  const result: BacktestResult = {
    ...figures,
    fills: trades.length,
    signals: signalsGiven,
    refusedSignals: refused,
    ...curvesOf(equity, config.initialCapital),
    notes: [
      'Exchange quotes are simulated from the market’s price: the reference price plus a small mean-reverting basis per exchange (the live strategy’s quotes).',
      `Each time the best pair’s spread net of both exchanges’ fees exceeded ${pct(Number(config.parameters['minSpread']))}, a round trip of ${config.parameters['maxPositionSize']} USD: bought on the cheaper exchange and sold on the dearer one at that close’s quotes, each leg paying its exchange’s fee; no coin is held between them.`,
      'A round trip the cash could not pay for was refused.',
    ],
  };
  options.onProgress?.(1);
  return { result, trades };
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * The round trips of a backtest's fills, in time order: each SELL closes the position its coin's
 * BUYs opened (one position per coin, as the bot holds). Net return: the SELL's P&L (net of both
 * fees) over what the position cost (the BUYs' notional and fees); gross: the SELL's price over the
 * BUYs' average price.
 */
export function backtestRoundTrips(trades: readonly BacktestTrade[]): StrategyRoundTrip[] {
  const open = new Map<string, { cost: number; units: number; notional: number; time: string }>();
  const trips: StrategyRoundTrip[] = [];
  const sorted = [...trades].sort((a, b) => a.time.localeCompare(b.time));
  for (const t of sorted) {
    if (t.side === 'BUY') {
      const held = open.get(t.symbol) ?? { cost: 0, units: 0, notional: 0, time: t.time };
      open.set(t.symbol, { cost: held.cost + t.amount * t.price + t.fee, units: held.units + t.amount, notional: held.notional + t.amount * t.price, time: held.time });
      continue;
    }
    const held = open.get(t.symbol);
    if (!held || held.units <= 0 || t.pnl === null) continue;
    const share = Math.min(1, t.amount / held.units);
    const cost = held.cost * share;
    const entryPrice = held.notional / held.units;
    trips.push({ entryPrice, entryTime: held.time, exitPrice: t.price, exitTime: t.time, grossReturn: round((t.price / entryPrice - 1) * 100), netReturn: round((t.pnl / cost) * 100) });
    if (share >= 1) open.delete(t.symbol);
    else open.set(t.symbol, { cost: held.cost - cost, units: held.units - t.amount, notional: held.notional * (1 - share), time: held.time });
  }
  return trips;
}
