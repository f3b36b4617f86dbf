/**
 * trading-bots: one document per user with the bot's status and whether the user is premium
 * (domain/src/trading/bot-view.ts). After a batch with bot events is written, BOT_STATUS `{status}`
 * goes to that user's sockets (`realtime.user.<userId>.BOT_STATUS`): after the write, so a client
 * that learns "ACTIVE" from the feed and reads the read model finds it ACTIVE. Subscription changes
 * alone push nothing (the bot's status did not change).
 */
import { BOT_EVENT_TYPES, TRADING_BOTS_PROJECTION, evolveTradingBotView, tradingBotDocumentId, type TradingBotView } from '@papertrade/domain/trading/bot-view';
import type { ProjectionDefinition } from '@papertrade/platform/projections/projection';
import { userRealtimeSubject } from '@papertrade/domain/realtime/subjects';

export const tradingBotsProjection: ProjectionDefinition<TradingBotView> = {
  name: TRADING_BOTS_PROJECTION,
  documentIds: (event) => {
    const id = tradingBotDocumentId(event);
    return id === null ? [] : [id];
  },
  evolve: (doc, event) => evolveTradingBotView(doc, event),
  async afterWrite(written, { bus }) {
    for (const { doc, eventTypes } of written) {
      if (!doc || !eventTypes.some((t) => BOT_EVENT_TYPES.has(t))) continue;
      await bus.publish(userRealtimeSubject(doc.userId, 'BOT_STATUS'), { status: doc.status });
    }
  },
};
