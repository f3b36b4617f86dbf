/**
 * EvaluateSignal: one closed candle's indicator readings for a coin. The rules (signal-rules.ts) give
 * a verdict; a SignalGenerated is appended only when it says something new: another type, or another
 * set of indicator verdicts, than the last signal. A candle at or before the last signal's candle is
 * ignored, so evaluating the same candle twice (a replay, a restarted worker) appends once.
 */
import { assertNever, type Decider } from '../shared/decider';
import { ValidationError } from '../shared/errors';
import { evolveSignal, initialSignalState, SIGNAL_EVENT_SCHEMA_VERSION, upcastSignalEvent, type SignalEvent, type SignalState } from './signal';
import { evaluateSignalRules, type IndicatorReadings, type SignalReason, type SignalType } from './signal-rules';

export type EvaluateSignal = {
  type: 'EvaluateSignal';
  data: {
    /** The id the signal gets if there is one (derived from symbol and candle time by the caller). */
    signalId: string;
    symbol: string;
    /** The closed candle's open time, ISO-8601. */
    candleTime: string;
    readings: IndicatorReadings;
  };
};
export type SignalCommand = EvaluateSignal;

export function evaluateSignal(command: EvaluateSignal, state: SignalState): SignalEvent[] {
  const { signalId, symbol, candleTime, readings } = command.data;
  const at = Date.parse(candleTime);
  if (Number.isNaN(at)) throw new ValidationError(`candleTime must be an ISO-8601 time, got ${JSON.stringify(candleTime)}`);
  if (state.status === 'signalled' && at <= Date.parse(state.candleTime)) return [];
  const verdict = evaluateSignalRules(readings);
  if (state.status === 'signalled' && !evidenceChanged(state, verdict.type, verdict.reasons)) return [];
  return [
    {
      type: 'SignalGenerated',
      data: {
        signalId,
        symbol: symbol.toUpperCase(),
        type: verdict.type,
        confidence: verdict.confidence,
        score: verdict.score,
        formula: verdict.formula,
        price: readings.price,
        candleTime: new Date(at).toISOString(),
        reasons: verdict.reasons,
      },
    },
  ];
}

/** Another type, or another set of (indicator, verdict) pairs: values alone moving is not news. */
function evidenceChanged(last: Extract<SignalState, { status: 'signalled' }>, type: SignalType, reasons: SignalReason[]): boolean {
  if (type !== last.type) return true;
  const key = (pairs: Array<{ indicator: string; says: SignalType }>) =>
    pairs
      .map((p) => `${p.indicator}:${p.says}`)
      .sort()
      .join(',');
  return key(reasons) !== key(last.verdicts);
}

export const signalDecider: Decider<SignalState, SignalCommand, SignalEvent> = {
  name: 'signals',
  // 2: score and formula on SignalGenerated, weight and vote on its reasons (signal.ts upcasts 1).
  schemaVersion: SIGNAL_EVENT_SCHEMA_VERSION,
  initialState: initialSignalState,
  evolve: evolveSignal,
  upcast: upcastSignalEvent,
  decide(command, state) {
    switch (command.type) {
      case 'EvaluateSignal':
        return evaluateSignal(command, state);
      default:
        return assertNever(command.type);
    }
  },
};
