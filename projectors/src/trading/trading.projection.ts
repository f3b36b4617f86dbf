/**
 * The trading read models (domain/src/trading/trading-view.ts holds the evolves):
 * portfolios: one document per user from the `portfolio-{userId}` stream (cash, positions, the
 * day's start, the trade summary); trades: one per trade, OPEN until closed; risk: one per user from
 * the `risk-{userId}` stream (the one risk profile, alerts not yet cleared).
 *
 * Portfolio events are read in their current shape: older schema versions go through the portfolio's
 * upcaster first (portfolio-events.ts), as the command side reads them.
 */
import {
  PORTFOLIOS_PROJECTION,
  RISK_PROJECTION,
  TRADES_PROJECTION,
  evolvePortfolioView,
  evolveRiskView,
  evolveTradeView,
  portfolioViewIds,
  riskViewIds,
  tradeViewIds,
  type PortfolioView,
  type RiskView,
  type TradeView,
} from '@papertrade/domain/trading/trading-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';
import { currentShape } from './portfolio-events';

export const portfoliosProjection: ProjectionDefinition<PortfolioView> = {
  name: PORTFOLIOS_PROJECTION,
  documentIds: (event) => portfolioViewIds(currentShape(event)),
  evolve: (doc, _event, recorded) => evolvePortfolioView(doc, currentShape(recorded)),
};

export const tradesProjection: ProjectionDefinition<TradeView> = {
  name: TRADES_PROJECTION,
  documentIds: (event) => tradeViewIds(currentShape(event)),
  evolve: (doc, _event, recorded) => evolveTradeView(doc, currentShape(recorded)),
};

export const riskProjection: ProjectionDefinition<RiskView> = {
  name: RISK_PROJECTION,
  documentIds: (event) => riskViewIds(event),
  // Risk events of older schema versions upcast first (portfolio-events.ts): the one profile.
  evolve: (doc, _event, recorded) => evolveRiskView(doc, currentShape(recorded)),
};
