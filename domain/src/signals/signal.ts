/**
 * The `signals-{SYMBOL}` stream: one SignalGenerated each time the evidence for a coin changes (the
 * verdict, or which way any indicator points). Its state is the last signal: what the next candle's
 * evidence is compared with, and the newest candle evaluated so far as this stream knows it
 * (evaluations that changed nothing leave no event, by design).
 *
 * Schema versions of SignalGenerated:
 *   1  no score or formula; reasons without weight or vote (the confidence was weighted-vote-v1's).
 *   2  score and formula on the signal, weight and vote on each reason (signal-rules.ts).
 * `upcastSignalGenerated` brings a version 1 event to version 2 without changing what it said: the
 * weights were the same table then, the votes follow from `says`, the score from both, and the
 * formula is named 'weighted-vote-v1', so the stored confidence keeps the rule it was computed by.
 */
import type { DomainEvent, StoredEventShape } from '../shared/decider';
import { SIGNAL_VOTES, SIGNAL_WEIGHTS, signalFormulas, signalScore, voteWeights, type SignalFormula, type SignalReason, type SignalType } from './signal-rules';

export type SignalGenerated = DomainEvent<
  'SignalGenerated',
  {
    /** Derived from the symbol and the candle's time, so a replay yields the same id. */
    signalId: string;
    symbol: string;
    type: SignalType;
    /** Percent, 0-100, by `formula`. */
    confidence: number;
    /** Σ weight·vote / Σ weight of the reasons, in [-1, 1]. */
    score: number;
    formula: SignalFormula;
    /** The candle's close, USD. */
    price: number;
    /** The closed candle's open time, ISO-8601. */
    candleTime: string;
    reasons: SignalReason[];
  }
>;
export type SignalEvent = SignalGenerated;

/** A reason as schema version 1 stored it. */
export type SignalReasonV1 = Omit<SignalReason, 'vote' | 'weight'>;
/** SignalGenerated as schema version 1 stored it (and as tests that stand in for the engine append it). */
export type SignalGeneratedV1 = DomainEvent<'SignalGenerated', Omit<SignalGenerated['data'], 'score' | 'formula' | 'reasons'> & { reasons: SignalReasonV1[] }>;

export const SIGNAL_EVENT_SCHEMA_VERSION = 2;

const isFormula = (value: unknown): value is SignalFormula => typeof value === 'string' && (signalFormulas as readonly string[]).includes(value);

/**
 * SignalGenerated data of any schema version as version 2. Told apart by shape (a version 2 event
 * names its formula), so data without its metadata (a read-model document) upcasts the same way.
 */
export function upcastSignalGeneratedData(data: Record<string, unknown>): SignalGenerated['data'] {
  const v = data as SignalGenerated['data'] | SignalGeneratedV1['data'];
  if ('formula' in v && isFormula(v.formula)) return v as SignalGenerated['data'];
  const reasons: SignalReason[] = (v.reasons ?? []).map((r) => ({ ...r, vote: SIGNAL_VOTES[r.says], weight: SIGNAL_WEIGHTS[r.indicator] }));
  return { ...v, score: signalScore(voteWeights(reasons)), formula: 'weighted-vote-v1', reasons };
}

export function upcastSignalEvent(event: StoredEventShape): SignalEvent {
  if (event.type !== 'SignalGenerated') return event as unknown as SignalEvent;
  return { type: 'SignalGenerated', data: upcastSignalGeneratedData(event.data) };
}

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
