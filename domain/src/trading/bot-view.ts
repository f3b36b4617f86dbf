/**
 * The `trading-bots` read model, as a pure evolve: one document per user whose bot or subscription
 * ever changed, with the bot's status and whether the user is premium (tier PREMIUM and status
 * ACTIVE, from `subscription-{userId}`). The trading bot worker asks it for the bots to run on a
 * signal (`status: 'ACTIVE', premium: true`, one indexed query); the projection pushes BOT_STATUS
 * to the user's sockets once a bot event is written.
 *
 * A bot stays ACTIVE when its user loses premium (only the user stops it, spec: stopping never
 * needs premium), but the worker does not trade for it while `premium` is false.
 */
import { TIER_CHANGING_EVENT_TYPES, tierAndStatusAfter, type SubscriptionEvent } from '../auth/subscription';
import type { SubscriptionStatus, SubscriptionTier } from '../auth/contracts';
import type { DomainEvent } from '../shared/decider';
import type { BotEvent, BotStatus } from './bot';

export const TRADING_BOTS_PROJECTION = 'trading-bots';
export const BOT_EVENT_TYPES: ReadonlySet<string> = new Set(['BotStarted', 'BotStopped', 'BotReset']);
/** Only the subscription events that change tier or status matter here (premium switches on and off). */
const SUBSCRIPTION_EVENT_TYPES = TIER_CHANGING_EVENT_TYPES;

export type TradingBotView = {
  userId: string;
  status: BotStatus;
  premium: boolean;
  tier: SubscriptionTier;
  subscriptionStatus: SubscriptionStatus;
  /** When the bot was last started (null when stopped). */
  startedAt: string | null;
  /** The time of the last event applied (ISO). */
  updatedAt: string;
};

/** The user a bot or subscription event belongs to, or null for any other event. */
export function tradingBotDocumentId(event: { type: string; data: unknown }): string | null {
  if (!BOT_EVENT_TYPES.has(event.type) && !SUBSCRIPTION_EVENT_TYPES.has(event.type)) return null;
  const userId = (event.data as { userId?: unknown }).userId;
  return typeof userId === 'string' ? userId : null;
}

export function evolveTradingBotView(doc: TradingBotView | null, event: DomainEvent): TradingBotView | null {
  if (!BOT_EVENT_TYPES.has(event.type) && !SUBSCRIPTION_EVENT_TYPES.has(event.type)) return doc;
  const e = event as BotEvent | SubscriptionEvent;
  const current: TradingBotView = doc ?? {
    userId: e.data.userId,
    status: 'STOPPED',
    premium: false,
    tier: 'FREE',
    subscriptionStatus: 'ACTIVE',
    startedAt: null,
    updatedAt: '',
  };
  switch (e.type) {
    case 'BotStarted':
      return { ...current, status: 'ACTIVE', startedAt: e.data.startedAt, updatedAt: e.data.startedAt };
    case 'BotStopped':
      return { ...current, status: 'STOPPED', startedAt: null, updatedAt: e.data.stoppedAt };
    case 'BotReset':
      return { ...current, status: 'STOPPED', startedAt: null, updatedAt: e.data.resetAt };
    case 'SubscriptionChangedByAdmin':
    case 'SubscriptionActivated':
    case 'SubscriptionPlanChanged':
    case 'SubscriptionExpired': {
      const { tier, status, at } = tierAndStatusAfter(e)!;
      return { ...current, tier, subscriptionStatus: status, premium: tier === 'PREMIUM' && status === 'ACTIVE', updatedAt: at };
    }
    default:
      return doc;
  }
}
