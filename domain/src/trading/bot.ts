/**
 * The `bot-{userId}` stream: whether the user's trading bot is running. STOPPED -> ACTIVE (StartBot,
 * premium only) -> STOPPED (StopBot), and ResetBot (premium only) back to STOPPED. The bot's
 * settings live on `risk-{userId}` (risk.ts) with the risk parameters the bot and the risk monitor
 * read together; POST /api/bot/reset issues ResetBot here and ResetBotSettings there.
 */
import type { DomainEvent } from '../shared/decider';

export type BotStarted = DomainEvent<'BotStarted', { userId: string; startedAt: string }>;
export type BotStopped = DomainEvent<'BotStopped', { userId: string; stoppedAt: string }>;
/** `wasActive`: whether the reset also stopped a running bot. */
export type BotReset = DomainEvent<'BotReset', { userId: string; wasActive: boolean; resetAt: string }>;

export type BotEvent = BotStarted | BotStopped | BotReset;

export type BotStatus = 'STOPPED' | 'ACTIVE';
export type BotState = { status: 'STOPPED' } | { status: 'ACTIVE'; startedAt: string };

export const initialBotState = (): BotState => ({ status: 'STOPPED' });

export function evolveBot(_state: BotState, event: BotEvent): BotState {
  switch (event.type) {
    case 'BotStarted':
      return { status: 'ACTIVE', startedAt: event.data.startedAt };
    case 'BotStopped':
    case 'BotReset':
      return { status: 'STOPPED' };
  }
}

export const botStreamId = (userId: string) => `bot-${userId}`;
