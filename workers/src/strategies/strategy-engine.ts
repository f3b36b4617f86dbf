/**
 * The strategy engine (issue 19): on every closed candle, after the house signal of a coin (the signal
 * engine calls `evaluateCoin` with the closed candles it has read), it evaluates each DISTINCT
 * evaluation of the users' active strategies once (strategy-followers.ts: equal configuration, and for
 * the neural strategy equal model, is one evaluation however many users have it) and issues
 * EvaluateStrategy on `strategy-signals-{configId}-{SYMBOL}`; the decider appends a
 * StrategySignalGenerated when the strategy buys, sells or finds an arbitrage, with its reasons.
 *
 * What is computed once per coin and candle and shared further: the closes, the RSI of each period
 * (configurations that differ only in their stops share it), the exchange quotes, the model features;
 * each model is loaded once per process (by digest) and scored once per candle.
 *
 * Neural strategies are evaluated on ETH only (MODEL_SYMBOL): the models learn ETH's 5-minute candles.
 *
 * Never twice: the signal id and the command's idempotency key derive from configId, symbol and
 * candle time, and the decider ignores a candle at or before its last, so engines racing or a replay
 * append one signal. A failing evaluation is logged and counted; the others go on.
 */
import { FEATURE_COUNT, computeFeatures } from '@papertrade/domain/ml/features';
import { MODEL_SYMBOL } from '@papertrade/domain/ml/model';
import type { Candle, Coin } from '@papertrade/domain/market/coins';
import { rsi } from '@papertrade/domain/market/indicators/rsi';
import { exchangeQuotes, type ExchangeQuote } from '@papertrade/domain/strategies/exchange-quotes';
import type { TechnicalConfiguration } from '@papertrade/domain/strategies/strategy-catalogue';
import { strategySignalDecider, strategySignalsStreamId, type EvaluateStrategy, type StrategyInputs } from '@papertrade/domain/strategies/strategy-signals';
import type { CommandHandler } from '@papertrade/platform/commands/command-handler';
import { STRATEGY_ENGINE_ACTOR, strategyIdempotency, strategySignalIdFor } from './strategy-signal-ids';
import type { Logger } from '@papertrade/platform/config/logger';
import type { DocumentStore } from '@papertrade/platform/document-store/document-store';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { loadModel } from '../ml/trainers';
import { ML_MODELS_COLLECTION, type StoredModelDocument } from '../ml/model-training-job';
import { distinctEvaluations, type Evaluation } from './strategy-followers';

export { STRATEGY_ENGINE_ACTOR, strategyIdempotency, strategySignalIdFor } from './strategy-signal-ids';

/** The probability of an up candle after the last of `candles`, by the model of `digest`. */
export type ModelScorer = (digest: string, candles: readonly Candle[]) => Promise<number>;

export interface StrategyEngineDeps {
  readModels: ReadModels;
  handler: CommandHandler;
  logger: Logger;
  /** Where stored models are (the default scorer loads them from `ml-models`). */
  documents?: DocumentStore;
  scorer?: ModelScorer;
}

export interface StrategyEngineStatus {
  name: 'strategy-engine';
  rounds: number;
  /** Distinct evaluations made (one per configuration, coin and candle). */
  evaluations: number;
  /** Active strategies those evaluations served. */
  strategiesServed: number;
  signalsGenerated: number;
  failures: number;
  lastError: string | null;
}

/** Each stored model loaded once (by digest) from the `ml-models` documents (a failed load is tried again next time). */
export function storedModelLoader(documents: DocumentStore): (digest: string) => ReturnType<typeof loadModel> {
  const loaded = new Map<string, ReturnType<typeof loadModel>>();
  const models = documents.collection<StoredModelDocument>(ML_MODELS_COLLECTION);
  return (digest) => {
    let model = loaded.get(digest);
    if (!model) {
      model = (async () => {
        const doc = await models.get(digest);
        if (!doc) throw new Error(`model ${digest.slice(0, 12)} is not stored`);
        return loadModel(Buffer.from(doc.content, 'utf8'));
      })();
      model.catch(() => loaded.delete(digest));
      loaded.set(digest, model);
    }
    return model;
  };
}

/** The default scorer: each model loaded once (by digest) from the `ml-models` documents, the newest candle's features standardised as in training. */
export function storedModelScorer(documents: DocumentStore): ModelScorer {
  const load = storedModelLoader(documents);
  return async (digest, candles) => {
    const { stored, predict } = await load(digest);
    const features = computeFeatures({
      time: candles.map((c) => c.time),
      high: candles.map((c) => c.high),
      low: candles.map((c) => c.low),
      close: candles.map((c) => c.close),
      volume: candles.map((c) => c.volume),
    });
    if (features.rows === 0 || features.index[features.rows - 1] !== candles.length - 1) return Number.NaN;
    const { mean, std } = stored.standardisation;
    const x = new Float32Array(FEATURE_COUNT);
    const row = (features.rows - 1) * FEATURE_COUNT;
    for (let f = 0; f < FEATURE_COUNT; f++) x[f] = (features.values[row + f]! - mean[f]!) / std[f]!;
    return (await predict(x, 1))[0]!;
  };
}

export class StrategyEngine {
  private rounds = 0;
  private evaluations = 0;
  private strategiesServed = 0;
  private signalsGenerated = 0;
  private failures = 0;
  private lastError: string | null = null;
  private readonly scorer: ModelScorer | null;

  constructor(private readonly deps: StrategyEngineDeps) {
    this.scorer = deps.scorer ?? (deps.documents ? storedModelScorer(deps.documents) : null);
  }

  status(): StrategyEngineStatus {
    return { name: 'strategy-engine', rounds: this.rounds, evaluations: this.evaluations, strategiesServed: this.strategiesServed, signalsGenerated: this.signalsGenerated, failures: this.failures, lastError: this.lastError };
  }

  /** Evaluates every distinct active evaluation on the last of `closed` (a coin's closed candles, oldest first). */
  async evaluateCoin(coin: Coin, closed: readonly Candle[]): Promise<void> {
    if (closed.length < 2) return;
    this.rounds += 1;
    const distinct = (await distinctEvaluations(this.deps.readModels)).filter(({ evaluation }) => evaluation.strategyType !== 'neural' || coin.symbol === MODEL_SYMBOL);
    if (distinct.length === 0) return;
    const last = closed[closed.length - 1]!;
    const candleTime = new Date(last.time).toISOString();
    const closes = Float64Array.from(closed, (c) => c.close);
    const rsiByPeriod = new Map<number, Float64Array>();
    let quotes: ExchangeQuote[] | undefined;
    const probabilities = new Map<string, Promise<number>>();
    for (const { evaluation, users } of distinct) {
      try {
        const inputs = await this.inputsOf(evaluation, closed, closes, rsiByPeriod, () => (quotes ??= exchangeQuotes(closes)), probabilities);
        if (!inputs) continue;
        const command: EvaluateStrategy = {
          type: 'EvaluateStrategy',
          data: { signalId: strategySignalIdFor(evaluation.configId, coin.symbol, candleTime), configId: evaluation.configId, configKey: evaluation.key, symbol: coin.symbol, candleTime, inputs },
        };
        const result = await this.deps.handler.handle(strategySignalDecider, strategySignalsStreamId(evaluation.configId, coin.symbol), command, {
          actor: STRATEGY_ENGINE_ACTOR,
          correlationId: command.data.signalId,
          idempotency: strategyIdempotency(evaluation.configId, coin.symbol, candleTime),
        });
        this.evaluations += 1;
        this.strategiesServed += users;
        if (!result.replayed) this.signalsGenerated += result.events.length;
      } catch (error) {
        this.failures += 1;
        this.lastError = error instanceof Error ? error.message : String(error);
        this.deps.logger.warn('strategy evaluation failed; the next candle tries again', { coinId: coin.id, strategyType: evaluation.strategyType, error: this.lastError });
      }
    }
  }

  private async inputsOf(
    evaluation: Evaluation,
    closed: readonly Candle[],
    closes: Float64Array,
    rsiByPeriod: Map<number, Float64Array>,
    quotes: () => ExchangeQuote[],
    probabilities: Map<string, Promise<number>>,
  ): Promise<StrategyInputs | null> {
    const close = closes[closes.length - 1]!;
    switch (evaluation.strategyType) {
      case 'technical': {
        const configuration = evaluation.configuration as TechnicalConfiguration;
        let series = rsiByPeriod.get(configuration.rsiPeriod);
        if (!series) {
          series = closes.length > configuration.rsiPeriod + 1 ? rsi(closes, configuration.rsiPeriod) : new Float64Array(closes.length).fill(Number.NaN);
          rsiByPeriod.set(configuration.rsiPeriod, series);
        }
        return { strategyType: 'technical', configuration, rsi: series[series.length - 1]!, previousRsi: series[series.length - 2]!, close };
      }
      case 'neural': {
        if (!this.scorer || !evaluation.model) return null;
        const { digest, owner } = evaluation.model;
        let p = probabilities.get(digest);
        if (!p) {
          p = this.scorer(digest, closed);
          probabilities.set(digest, p);
        }
        return { strategyType: 'neural', configuration: evaluation.configuration as Extract<StrategyInputs, { strategyType: 'neural' }>['configuration'], probabilityUp: await p, close, model: `${owner === 'own' ? 'Your' : 'House'} model ${digest.slice(0, 8)}` };
      }
      case 'arbitrage':
        return { strategyType: 'arbitrage', configuration: evaluation.configuration as Extract<StrategyInputs, { strategyType: 'arbitrage' }>['configuration'], quotes: quotes(), close };
    }
  }
}
