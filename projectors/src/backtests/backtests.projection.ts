/**
 * The backtester's read models (domain/src/backtest/backtest-views.ts): `backtests` (one small document
 * per run: settings, status, the history's figures), `backtest-results` (a completed run's result with
 * its curves, or its walk-forward report), `backtest-trades` (a page of trades per document) and
 * `backtest-comparisons` (a completed backtest beside the owner's paper trades).
 * After a batch that ended runs, BACKTEST_UPDATE `{id, status}` goes to each owner's sockets: after the
 * write, so a client that reads the backtest on it finds it ended.
 */
import {
  BACKTEST_COMPARISONS_PROJECTION,
  BACKTEST_RESULTS_PROJECTION,
  BACKTEST_TRADES_PROJECTION,
  BACKTESTS_PROJECTION,
  backtestComparisonDocumentId,
  backtestDocumentId,
  backtestResultDocumentId,
  backtestTradesDocumentId,
  evolveBacktestComparisonView,
  evolveBacktestResultView,
  evolveBacktestTradesView,
  evolveBacktestView,
  type BacktestComparisonView,
  type BacktestResultView,
  type BacktestTradesView,
  type BacktestView,
} from '@papertrade/domain/backtest/backtest-views';
import { backtestUpdateSchema } from '@papertrade/domain/backtest/service-contracts';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const one = (id: string | null) => (id === null ? [] : [id]);

export const backtestsProjection: ProjectionDefinition<BacktestView> = {
  name: BACKTESTS_PROJECTION,
  documentIds: (event) => one(backtestDocumentId(event)),
  evolve: (doc, event) => evolveBacktestView(doc, event),
  async afterWrite(written, { bus }) {
    for (const { doc, eventTypes } of written) {
      if (!doc || !UUID.test(doc.userId)) continue;
      if (!eventTypes.some((t) => t === 'BacktestRequested' || t === 'BacktestCompleted' || t === 'WalkForwardCompleted' || t === 'BacktestFailed')) continue;
      const update = backtestUpdateSchema.parse({ id: doc.id, jobId: doc.jobId, mode: doc.mode, status: doc.status, error: doc.error });
      await bus.publish(userRealtimeSubject(doc.userId, 'BACKTEST_UPDATE'), update);
    }
  },
};

export const backtestResultsProjection: ProjectionDefinition<BacktestResultView> = {
  name: BACKTEST_RESULTS_PROJECTION,
  documentIds: (event) => one(backtestResultDocumentId(event)),
  evolve: (doc, event) => evolveBacktestResultView(doc, event),
};

export const backtestTradesProjection: ProjectionDefinition<BacktestTradesView> = {
  name: BACKTEST_TRADES_PROJECTION,
  documentIds: (event) => one(backtestTradesDocumentId(event)),
  evolve: (doc, event) => evolveBacktestTradesView(doc, event),
};

export const backtestComparisonsProjection: ProjectionDefinition<BacktestComparisonView> = {
  name: BACKTEST_COMPARISONS_PROJECTION,
  documentIds: (event) => one(backtestComparisonDocumentId(event)),
  evolve: (doc, event) => evolveBacktestComparisonView(doc, event),
};
