/**
 * The ids the live signal engine gives a signal and the event that records it (signal-engine.ts
 * signalIdFor; the command helper's idempotent id of the SignalGenerated event, the stream's first
 * event of the request), so a backtest of the house signals names its signals as the paper bot saw
 * them, and its trades get the bot's trade ids (compare-paper lines them up by id).
 */
import { signalsStreamId } from '@papertrade/domain/signals/signal';
import { idempotentId } from '@papertrade/platform/commands/command-handler';
import { signalIdFor, signalIdempotency } from '../signal-engine';

export const liveSignalIds = {
  signalIdOf: signalIdFor,
  signalEventIdOf: (symbol: string, candleTime: string) => idempotentId(signalIdempotency(symbol, candleTime), `${signalsStreamId(symbol)}#0`),
};
