/**
 * The signals read models, as pure evolves: `signals` holds one document per signal (listed newest
 * candle first, filtered by symbol), `signal-counts` one document per symbol and one for every coin
 * (SIGNAL_COUNTS_ALL) with how many signals of each type were generated.
 */
import type { DomainEvent } from '../shared/decider';
import type { SignalCounts, Signal } from './contracts';
import type { SignalGenerated } from './signal';

export const SIGNALS_PROJECTION = 'signals';
export const SIGNAL_COUNTS_PROJECTION = 'signal-counts';
/** The counts document of every coin together. */
export const SIGNAL_COUNTS_ALL = 'ALL';

/** A signal as stored: the contract's fields plus the candle time in ms, to sort on. */
export type SignalView = Signal & { candleTimeMs: number };
export type SignalCountsView = SignalCounts;

export const emptySignalCounts = (): SignalCountsView => ({ total: 0, buy: 0, sell: 0, hold: 0 });

export function evolveSignalView(doc: SignalView | null, event: DomainEvent): SignalView | null {
  if (event.type !== 'SignalGenerated') return doc;
  const data = (event as SignalGenerated).data;
  return { ...data, symbol: data.symbol as Signal['symbol'], candleTimeMs: Date.parse(data.candleTime) };
}

export function evolveSignalCounts(doc: SignalCountsView | null, event: DomainEvent): SignalCountsView {
  const current = doc ?? emptySignalCounts();
  if (event.type !== 'SignalGenerated') return current;
  const key = ({ BUY: 'buy', SELL: 'sell', HOLD: 'hold' } as const)[(event as SignalGenerated).data.type];
  return { ...current, total: current.total + 1, [key]: current[key] + 1 };
}
