/**
 * The `bot-decisions` read model, as a pure evolve: one document per user with the trading bot's last
 * BOT_DECISIONS_KEPT refusals (BotSignalRefused on `risk-{userId}`: the rule that refused a BUY signal
 * and its figures), newest first. Bounded: a user's bot refuses at most one signal per candle and coin,
 * and only the recent ones help a person see why their bot did not trade (the events keep them all).
 * The trades carry their own decision (the `trades` read model).
 */
import type { DomainEvent } from '../shared/decider';
import { tradeIdFor } from './bot-trade-decision';
import { BOT_DECISIONS_KEPT, type BotDecisionsResponse, type BotRefusal } from './read-contracts';
import type { BotSignalRefused } from './risk';

export const BOT_DECISIONS_PROJECTION = 'bot-decisions';

export type BotDecisionsView = {
  userId: string;
  /** Newest first, at most BOT_DECISIONS_KEPT. */
  refusals: BotRefusal[];
  updatedAt: string;
};

export function botDecisionsDocumentId(event: { type: string; data: unknown }): string | null {
  if (event.type !== 'BotSignalRefused') return null;
  const userId = (event.data as { userId?: unknown }).userId;
  return typeof userId === 'string' ? userId : null;
}

export function evolveBotDecisionsView(doc: BotDecisionsView | null, event: DomainEvent): BotDecisionsView | null {
  if (event.type !== 'BotSignalRefused') return doc;
  const d = (event as BotSignalRefused).data;
  const id = tradeIdFor(d.signalId, d.userId);
  const current = doc ?? { userId: d.userId, refusals: [], updatedAt: d.refusedAt };
  if (current.refusals.some((r) => r.id === id)) return current;
  const refusal = {
    id,
    signalId: d.signalId,
    symbol: d.symbol,
    signalType: d.signalType,
    rule: d.decision.rule,
    text: d.decision.text,
    figures: d.decision.figures,
    timestamp: d.refusedAt,
  } as BotRefusal;
  return { ...current, refusals: [refusal, ...current.refusals].slice(0, BOT_DECISIONS_KEPT), updatedAt: d.refusedAt };
}

export function botDecisionsResponse(doc: BotDecisionsView | null): BotDecisionsResponse {
  return { refusals: doc?.refusals ?? [] };
}
