/**
 * bot-decisions: one document per user with the trading bot's recent refusals of BUY signals
 * (domain/src/trading/bot-decisions-view.ts), read by GET /api/bot/decisions.
 */
import { BOT_DECISIONS_PROJECTION, botDecisionsDocumentId, evolveBotDecisionsView, type BotDecisionsView } from '@papertrade/domain/trading/bot-decisions-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';

export const botDecisionsProjection: ProjectionDefinition<BotDecisionsView> = {
  name: BOT_DECISIONS_PROJECTION,
  documentIds: (event) => {
    const id = botDecisionsDocumentId(event);
    return id === null ? [] : [id];
  },
  evolve: (doc, event) => evolveBotDecisionsView(doc, event),
};
