/**
 * signals: one document per SignalGenerated (its id the signal's), listed newest candle first and
 * filtered by symbol (stored upper case); signal-counts: how many signals of each type, one document
 * per symbol and one for every coin (SIGNAL_COUNTS_ALL), for the Active Signals card.
 */
import {
  SIGNAL_COUNTS_ALL,
  SIGNAL_COUNTS_PROJECTION,
  SIGNALS_PROJECTION,
  evolveSignalCounts,
  evolveSignalView,
  type SignalCountsView,
  type SignalView,
} from '@papertrade/domain/signals/signal-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const signalsProjection: ProjectionDefinition<SignalView> = {
  name: SIGNALS_PROJECTION,
  documentIds: (event) => (event.type === 'SignalGenerated' ? [String(event.data.signalId)] : []),
  // The event's time is the signal's timestamp (GET /api/signals); a rebuild reads the same metadata.
  evolve: (doc, event, recorded) => evolveSignalView(doc, event, typeof recorded.metadata.at === 'string' ? recorded.metadata.at : undefined),
};

export const signalCountsProjection: ProjectionDefinition<SignalCountsView> = {
  name: SIGNAL_COUNTS_PROJECTION,
  documentIds: (event) => (event.type === 'SignalGenerated' ? [String(event.data.symbol).toUpperCase(), SIGNAL_COUNTS_ALL] : []),
  evolve: (doc, event) => evolveSignalCounts(doc, event),
};
