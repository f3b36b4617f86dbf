/**
 * The ids the live signal engine gives a signal and its SignalGenerated event (signal-engine.ts: the
 * command handler's idempotent ids from the symbol and the candle time), for a backtest whose trades
 * are to carry the paper bot's very ids (runBacktest's market `signalIdOf` / `signalEventIdOf`): with
 * the user's id they make the trade ids the bot's (tradeIdFor), which comparePaper lines up by.
 */
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { idempotentId } from '@papertrade/platform/commands/command-handler';
import { signalIdempotency, signalIdFor } from '../signal-engine';
import { strategySignalsStreamId } from '@papertrade/domain/strategies/strategy-signals';
import type { StrategySignalIds } from '@papertrade/domain/strategies/strategy-backtest';
import { strategyIdempotency, strategySignalIdFor } from '../strategies/strategy-signal-ids';

export const liveSignalIdOf = (symbol: string, candleTime: string): string => signalIdFor(symbol, candleTime);

/** The SignalGenerated's id: the first event the signal engine's command appends to `signals-{SYMBOL}`. */
export const liveSignalEventIdOf = (symbol: string, candleTime: string): string => idempotentId(signalIdempotency(symbol, candleTime), `${signalsStreamId(symbol)}#0`);

/** An AI strategy's signal as the strategy engine names it, and its StrategySignalGenerated (the first event of its command on `strategy-signals-{configId}-{SYMBOL}`). */
export const liveStrategySignalIds: StrategySignalIds = (configId, symbol, candleTime) => ({
  signalId: strategySignalIdFor(configId, symbol, candleTime),
  eventId: idempotentId(strategyIdempotency(configId, symbol, candleTime), `${strategySignalsStreamId(configId, symbol)}#0`),
});
