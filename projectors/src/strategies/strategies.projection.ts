/**
 * strategies (one document per user and strategy) and strategy-signals (one per strategy signal):
 * domain/src/strategies/strategy-view.ts. The query side reads a user's strategies by `userId` and a
 * configuration's signals by `strategyKey` over a `candleTimeMs` range.
 */
import {

  STRATEGY_EVALUATIONS_PROJECTION,
  activeEvaluationsIds,
  evolveActiveEvaluations,
  type ActiveEvaluationsView,
  STRATEGIES_PROJECTION,
  STRATEGY_SIGNALS_PROJECTION,
  evolveStrategySignalView,
  evolveStrategyView,
  strategySignalViewIds,
  strategyViewIds,
  type StrategySignalView,
  type StrategyView,
} from '@papertrade/domain/strategies/strategy-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const strategiesProjection: ProjectionDefinition<StrategyView> = {
  name: STRATEGIES_PROJECTION,
  documentIds: strategyViewIds,
  evolve: (doc, event) => evolveStrategyView(doc, event),
};

export const strategySignalsProjection: ProjectionDefinition<StrategySignalView> = {
  name: STRATEGY_SIGNALS_PROJECTION,
  documentIds: strategySignalViewIds,
  evolve: (doc, event) => evolveStrategySignalView(doc, event),
};

/** The distinct active configurations, one document (ACTIVE_EVALUATIONS_ID): what the strategy engine reads each candle. */
export const strategyEvaluationsProjection: ProjectionDefinition<ActiveEvaluationsView> = {
  name: STRATEGY_EVALUATIONS_PROJECTION,
  documentIds: activeEvaluationsIds,
  evolve: (doc, event) => evolveActiveEvaluations(doc, event),
};
