/**
 * The `signals-{SYMBOL}` stream: one SignalGenerated each time the evidence for a coin changes (the
 * verdict, or which way any indicator points). Its state is the last signal: what the next candle's
 * evidence is compared with, and the newest candle evaluated so far as this stream knows it
 * (evaluations that changed nothing leave no event, by design).
 */
import type { DomainEvent } from '../shared/decider';
import type { SignalReason, SignalType } from './signal-rules';

export type SignalGenerated = DomainEvent<
  'SignalGenerated',
  {
    /** Derived from the symbol and the candle's time, so a replay yields the same id. */
    signalId: string;
    symbol: string;
    type: SignalType;
    /** Percent, 0-100. */
    confidence: number;
    /** The candle's close, USD. */
    price: number;
    /** The closed candle's open time, ISO-8601. */
    candleTime: string;
    reasons: SignalReason[];
  }
>;
export type SignalEvent = SignalGenerated;

export type SignalState =
  | { status: 'none' }
  | { status: 'signalled'; candleTime: string; type: SignalType; verdicts: Array<{ indicator: string; says: SignalType }> };

export const initialSignalState = (): SignalState => ({ status: 'none' });

export function evolveSignal(_state: SignalState, event: SignalEvent): SignalState {
  switch (event.type) {
    case 'SignalGenerated': {
      const { candleTime, type, reasons } = event.data;
      return { status: 'signalled', candleTime, type, verdicts: reasons.map((r) => ({ indicator: r.indicator, says: r.says })) };
    }
  }
}

export const signalsStreamId = (symbol: string) => `signals-${symbol.toUpperCase()}`;
