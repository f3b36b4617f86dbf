/**
 * The ids the strategy engine (strategy-engine.ts) gives a strategy's signal: its idempotency key and
 * signal id derive from the configuration's id, the coin and the candle time, so engines racing or a
 * replay append one signal. Apart from the engine (which loads the model runtimes) so the backtest
 * thread can name a backtest's signals as the live ones (workers/src/backtest/live-ids.ts).
 */
import { idempotentId, type Idempotency } from '@papertrade/platform/commands/command-handler';

export const STRATEGY_ENGINE_ACTOR = 'strategy-engine';

export function strategyIdempotency(configId: string, symbol: string, candleTime: string): Idempotency {
  const key = `${configId}@${symbol.toUpperCase()}@${candleTime}`;
  return { scope: STRATEGY_ENGINE_ACTOR, key, requestHash: key };
}

export function strategySignalIdFor(configId: string, symbol: string, candleTime: string): string {
  return idempotentId(strategyIdempotency(configId, symbol, candleTime), 'strategy-signal');
}
