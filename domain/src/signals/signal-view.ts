/**
 * The signals read models, as pure evolves: `signals` holds one document per signal (listed newest
 * candle first, filtered by symbol), `signal-counts` one document per symbol and one for every coin
 * (SIGNAL_COUNTS_ALL) with how many signals of each type were generated.
 *
 * A signal document is the SignalGenerated data (upcast to schema version 2), its candle time in ms
 * to sort on, and when it was generated (the event's `at`). `toSignal` turns a document into the API's
 * signal: the spec's names (id, description, timestamp) and the weights the confidence follows from.
 * It upcasts again on the way out, so documents written before version 2 read the same way without
 * a rebuild.
 */
import type { DomainEvent } from '../shared/decider';
import { SIGNAL_CANDLE_MINUTES, type Signal, type SignalCounts } from './contracts';
import { upcastSignalGeneratedData, type SignalGenerated } from './signal';
import { isMixedEvidence, voteWeights, type SignalIndicator, type SignalReason, type SignalType } from './signal-rules';

export const SIGNALS_PROJECTION = 'signals';
export const SIGNAL_COUNTS_PROJECTION = 'signal-counts';
/** The counts document of every coin together. */
export const SIGNAL_COUNTS_ALL = 'ALL';

/** A signal as stored: the event's data plus the candle time in ms, to sort on, and when it was generated. */
export type SignalView = SignalGenerated['data'] & {
  candleTimeMs: number;
  /** The event's `at`, ISO-8601; absent in documents written before it was kept. */
  generatedAt?: string;
};
export type SignalCountsView = SignalCounts;

export const emptySignalCounts = (): SignalCountsView => ({ total: 0, buy: 0, sell: 0, hold: 0 });

/** `at`: the event's time (its metadata), kept as the signal's timestamp. */
export function evolveSignalView(doc: SignalView | null, event: DomainEvent, at?: string): SignalView | null {
  if (event.type !== 'SignalGenerated') return doc;
  const data = upcastSignalGeneratedData(event.data);
  return { ...data, candleTimeMs: Date.parse(data.candleTime), ...(at !== undefined ? { generatedAt: at } : {}) };
}

export function evolveSignalCounts(doc: SignalCountsView | null, event: DomainEvent): SignalCountsView {
  const current = doc ?? emptySignalCounts();
  if (event.type !== 'SignalGenerated') return current;
  const key = ({ BUY: 'buy', SELL: 'sell', HOLD: 'hold' } as const)[(event as SignalGenerated).data.type];
  return { ...current, total: current.total + 1, [key]: current[key] + 1 };
}

/** The API's signal from a stored document (of any schema version). */
export function toSignal(doc: SignalView): Signal {
  const { candleTimeMs, generatedAt, ...rest } = doc;
  const data = upcastSignalGeneratedData(rest);
  // A document from before `generatedAt` was kept: the candle's close, when the engine could first speak.
  const timestamp = generatedAt ?? new Date(candleTimeMs + SIGNAL_CANDLE_MINUTES * 60_000).toISOString();
  const weights = voteWeights(data.reasons);
  const mixed = isMixedEvidence(data.type, weights);
  return {
    id: data.signalId,
    signalId: data.signalId,
    symbol: data.symbol as Signal['symbol'],
    type: data.type,
    description: describeSignal(data.type, data.confidence, mixed, data.reasons),
    confidence: data.confidence,
    score: data.score,
    formula: data.formula,
    mixed,
    weights,
    price: data.price,
    timestamp,
    candleTime: data.candleTime,
    reasons: data.reasons,
  };
}

/**
 * The verdict and its reasons in one sentence: "HOLD (13% confidence, mixed evidence): RSI, SMA20,
 * EMA20 say BUY; MACD, SMA50 say SELL; VOLUME says HOLD".
 */
export function describeSignal(type: SignalType, confidence: number, mixed: boolean, reasons: ReadonlyArray<Pick<SignalReason, 'indicator' | 'says'>>): string {
  const head = `${type} (${confidence}% confidence${mixed ? ', mixed evidence' : ''})`;
  if (reasons.length === 0) return `${head}: no indicator has a reading yet`;
  const groups = (['BUY', 'SELL', 'HOLD'] as const)
    .map((says) => ({ says, indicators: reasons.filter((r) => r.says === says).map((r): SignalIndicator => r.indicator) }))
    .filter((g) => g.indicators.length > 0)
    .map((g) => `${g.indicators.join(', ')} ${g.indicators.length === 1 ? 'says' : 'say'} ${g.says}`);
  return `${head}: ${groups.join('; ')}`;
}
