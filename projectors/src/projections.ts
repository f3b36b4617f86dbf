/** Every projection this service runs. */
import type { Document } from '@papertrade/platform/document-store/document-store';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';
import { usersProjection } from './users/users.projection';
import { adminStatsProjection } from './admin-stats/admin-stats.projection';
import { publicStatsProjection } from './public-stats/public-stats.projection';
import { signalCountsProjection, signalsProjection } from './signals/signals.projection';
import { portfoliosProjection, riskProjection, tradesProjection } from './trading/trading.projection';
import { tradingBotsProjection } from './trading-bots/trading-bots.projection';
import { openPositionsProjection } from './open-positions/open-positions.projection';
import { subscriptionsProjection } from './subscriptions/subscriptions.projection';
import { botDecisionsProjection } from './bot-decisions/bot-decisions.projection';
import { jobsProjection } from './jobs/jobs.projection';
import { backtestComparisonsProjection, backtestResultsProjection, backtestsProjection, backtestTradesProjection } from './backtests/backtests.projection';
import { mlModelTypesProjection, mlStatusProjection } from './ml/ml.projection';
import { strategiesProjection, strategyEvaluationsProjection, strategySignalsProjection } from './strategies/strategies.projection';
import { accountSettingsProjection, exchangeConnectionsProjection, mirrorOrdersProjection } from './exchanges/exchanges.projection';

export const projections = [
  usersProjection,
  adminStatsProjection,
  publicStatsProjection,
  signalsProjection,
  signalCountsProjection,
  portfoliosProjection,
  tradesProjection,
  riskProjection,
  tradingBotsProjection,
  openPositionsProjection,
  subscriptionsProjection,
  botDecisionsProjection,
  jobsProjection,
  mlStatusProjection,
  mlModelTypesProjection,
  exchangeConnectionsProjection,
  mirrorOrdersProjection,
  accountSettingsProjection,
  backtestsProjection,
  backtestResultsProjection,
  backtestTradesProjection,
  backtestComparisonsProjection,
  strategiesProjection,
  strategySignalsProjection,
  strategyEvaluationsProjection,
] as unknown as ProjectionDefinition<Document>[];
