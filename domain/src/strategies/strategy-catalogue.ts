/**
 * The AI trading strategies every premium user has (issue 19, spec premium-and-account.md sections 2,
 * 3 and 5): one of each type, with stable ids, so `strategy-{userId}-{strategyId}` names one stream
 * per user and strategy and GET /api/strategies lists the same three for everyone (a strategy never
 * configured reads its defaults, inactive).
 *
 * Configuration per type (zod, each field with bounds and the spec's default, section 5):
 * - neural: learningRate, epochs (the neural network its Retrain trains: the ML slice's own bounds,
 *   domain/src/ml/model-types.ts) and confidenceThreshold (percent: the strategy buys when the model's
 *   probability of an up candle is at least this, sells when the probability of a down one is).
 * - technical: rsiPeriod, rsiOverbought (RSI above it sells; below 100 - it, oversold, buys), stopLoss
 *   and takeProfit (percent from the entry: the strategy's position closes there).
 * - arbitrage: minSpread (percent: the spread between two exchanges net of both fees must exceed it)
 *   and maxPositionSize (USD per round trip).
 *
 * A configuration's key (configKey) is its canonical text; configId (UUIDv5 of the key) is what users
 * with the same configuration share: one evaluation per candle (strategy-signals.ts).
 */
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';

export const strategyTypes = ['neural', 'technical', 'arbitrage'] as const;
export type StrategyType = (typeof strategyTypes)[number];

export const strategyIds = ['neural-network', 'rsi-technical', 'cross-exchange-arbitrage'] as const;
export type StrategyId = (typeof strategyIds)[number];

export interface StrategyInfo {
  id: StrategyId;
  type: StrategyType;
  name: string;
  description: string;
}

export const STRATEGIES: readonly StrategyInfo[] = Object.freeze([
  {
    id: 'neural-network',
    type: 'neural',
    name: 'Neural Network Predictor',
    description: 'Trades ETH when your model (or the house model until you train one) gives the next candle’s direction a probability at or above the confidence threshold.',
  },
  {
    id: 'rsi-technical',
    type: 'technical',
    name: 'RSI Mean Reversion',
    description: 'Buys a coin whose RSI enters oversold (below 100 − overbought), sells when it enters overbought, at the stop loss or at the take profit.',
  },
  {
    id: 'cross-exchange-arbitrage',
    type: 'arbitrage',
    name: 'Cross-Exchange Arbitrage',
    description: 'Buys on the exchange quoting lower and sells where higher when the spread net of both exchanges’ fees exceeds the minimum spread.',
  },
]);

export const strategyIdSchema = z.enum(strategyIds);

/** The strategy of a type: every premium user has one of each, so the type names it. */
export function strategyIdOfType(type: StrategyType): StrategyId {
  return STRATEGIES.find((s) => s.type === type)!.id;
}

export function strategyInfo(id: StrategyId): StrategyInfo {
  return STRATEGIES.find((s) => s.id === id)!;
}

/** Each configuration field's bounds and default (spec section 5), per type: the schemas and the dialog read this one table. */
export const CONFIGURATION_FIELDS = {
  neural: {
    learningRate: { min: 0.0001, max: 0.1, default: 0.001, integer: false },
    epochs: { min: 1, max: 100, default: 100, integer: true },
    confidenceThreshold: { min: 50, max: 99, default: 60, integer: false },
  },
  technical: {
    rsiPeriod: { min: 2, max: 100, default: 14, integer: true },
    rsiOverbought: { min: 51, max: 95, default: 70, integer: false },
    stopLoss: { min: 0.1, max: 50, default: 2, integer: false },
    takeProfit: { min: 0.1, max: 100, default: 4, integer: false },
  },
  arbitrage: {
    minSpread: { min: 0, max: 10, default: 0.5, integer: false },
    maxPositionSize: { min: 10, max: 1_000_000, default: 1000, integer: false },
  },
} as const satisfies Record<StrategyType, Record<string, { min: number; max: number; default: number; integer: boolean }>>;

function field(name: string, f: { min: number; max: number; default: number; integer: boolean }) {
  const range = `${name} must be from ${f.min} to ${f.max}`;
  const base = f.integer ? z.int(`${name} must be a whole number from ${f.min} to ${f.max}`) : z.number(`${name} must be a number from ${f.min} to ${f.max}`);
  return base.min(f.min, range).max(f.max, range).default(f.default);
}
const F = CONFIGURATION_FIELDS;

export const neuralConfigurationSchema = z.strictObject({
  learningRate: field('learningRate', F.neural.learningRate),
  epochs: field('epochs', F.neural.epochs),
  confidenceThreshold: field('confidenceThreshold', F.neural.confidenceThreshold),
});
export const technicalConfigurationSchema = z.strictObject({
  rsiPeriod: field('rsiPeriod', F.technical.rsiPeriod),
  rsiOverbought: field('rsiOverbought', F.technical.rsiOverbought),
  stopLoss: field('stopLoss', F.technical.stopLoss),
  takeProfit: field('takeProfit', F.technical.takeProfit),
});
export const arbitrageConfigurationSchema = z.strictObject({
  minSpread: field('minSpread', F.arbitrage.minSpread),
  maxPositionSize: field('maxPositionSize', F.arbitrage.maxPositionSize),
});

export type NeuralConfiguration = z.output<typeof neuralConfigurationSchema>;
export type TechnicalConfiguration = z.output<typeof technicalConfigurationSchema>;
export type ArbitrageConfiguration = z.output<typeof arbitrageConfigurationSchema>;
export type StrategyConfiguration = NeuralConfiguration | TechnicalConfiguration | ArbitrageConfiguration;

export const configurationSchemas = {
  neural: neuralConfigurationSchema,
  technical: technicalConfigurationSchema,
  arbitrage: arbitrageConfigurationSchema,
} as const;

export interface ConfigurationOf {
  neural: NeuralConfiguration;
  technical: TechnicalConfiguration;
  arbitrage: ArbitrageConfiguration;
}

/** The type's defaults (spec section 5). */
export function defaultConfiguration<T extends StrategyType>(type: T): ConfigurationOf[T] {
  return configurationSchemas[type].parse({}) as ConfigurationOf[T];
}

/** The canonical text of a configuration: the type and every field in a fixed order. Equal configurations, equal keys. */
export function configKey(type: StrategyType, configuration: StrategyConfiguration): string {
  const fields = Object.keys(configurationSchemas[type].shape).sort();
  const values = configuration as Record<string, number>;
  return `${type}|${fields.map((f) => `${f}=${values[f]}`).join('|')}`;
}

/** The namespace of configuration ids (a fixed random UUID: changing it would change every id). */
export const CONFIG_ID_NAMESPACE = '6f1c2d7e-93a4-4b8e-a0d5-1e7c9b2f4a36';

/** What users with the same evaluation share: the configuration key, and for neural the model it reads. */
export function configIdOf(key: string): string {
  return uuidv5(key, CONFIG_ID_NAMESPACE);
}
